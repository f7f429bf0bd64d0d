from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """A CharField that refuses numbers, booleans and objects instead of coercing them."""

    default_error_messages = {"invalid": "must be a string, not {kind}"}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid", kind=type(data).__name__)
        return super().to_internal_value(data)


class JSONObjectField(serializers.JSONField):
    default_error_messages = {"not_object": "must be a JSON object"}

    def to_internal_value(self, data):
        data = super().to_internal_value(data)
        if not isinstance(data, dict):
            self.fail("not_object")
        return data
