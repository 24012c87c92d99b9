"""URLs of the webhooks API, included under /api/v1/webhooks/."""

from django.urls import path, register_converter

from integrations.api import views


class DatabaseId:
    """A database id: 1 to 18 digits (a longer number is a 404, not an overflow)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(DatabaseId, "dbid")

urlpatterns = [
    path("subscriptions/", views.SubscriptionListCreateApi.as_view(), name="webhook-subscriptions"),
    path(
        "subscriptions/<dbid:subscription_id>/",
        views.SubscriptionDetailApi.as_view(),
        name="webhook-subscription",
    ),
    path("deliveries/", views.DeliveryListApi.as_view(), name="webhook-deliveries"),
    path(
        "deliveries/<dbid:delivery_id>/replay/",
        views.DeliveryReplayApi.as_view(),
        name="webhook-delivery-replay",
    ),
]
