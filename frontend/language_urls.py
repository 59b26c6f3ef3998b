"""Routes of the language views: the JavaScript catalogue and the rules page."""

from django.urls import path

from frontend.language import js_catalog, rules_fragment, rules_page

urlpatterns = [
    path("jsi18n/<str:lang>/", js_catalog, name="js-catalog"),
    path("rules", rules_page, name="rules"),
    path("rules/fragment", rules_fragment, name="rules-fragment"),
]
