from django.contrib.auth.views import LoginView
from django.urls import include, path

urlpatterns = [
    path("accounts/login/", LoginView.as_view()),
    # At the root, so the issuer is SITE_URL itself and discovery is SITE_URL/.well-known/openid-configuration.
    path("", include("oidc_provider.urls", namespace="oidc_provider")),
]
