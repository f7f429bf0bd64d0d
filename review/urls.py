"""The review app's pages (mounted at the site root by ``ReviewConfig.page_urls``): the
review queue and conflict pages, the decision log and detector figures, and the staff's
tier browser. Each view module declares its own routes."""

from review.views import browser, decisions, queue

app_name = "review"

urlpatterns = [*queue.urlpatterns, *decisions.urlpatterns, *browser.urlpatterns]
