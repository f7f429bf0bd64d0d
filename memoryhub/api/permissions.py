from rest_framework.permissions import BasePermission


class IsStaffToken(BasePermission):
    message = "this action needs a staff token"

    def has_permission(self, request, view):
        return bool(request.user and request.user.is_authenticated and request.user.is_staff)
