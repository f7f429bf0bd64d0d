"""(being built)"""

urlpatterns = []
