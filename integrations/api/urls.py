"""URLs of the webhooks API, included under /api/v1/webhooks/."""

from django.urls import path

from integrations.api import views

urlpatterns = [
    path("subscriptions/", views.SubscriptionListCreateApi.as_view(), name="webhook-subscriptions"),
    path(
        "subscriptions/<int:subscription_id>/",
        views.SubscriptionDetailApi.as_view(),
        name="webhook-subscription",
    ),
    path("deliveries/", views.DeliveryListApi.as_view(), name="webhook-deliveries"),
    path(
        "deliveries/<int:delivery_id>/replay/",
        views.DeliveryReplayApi.as_view(),
        name="webhook-delivery-replay",
    ),
]
