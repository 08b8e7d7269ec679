"""Accounts keep no models of their own: users are Django's, emails allauth's, sessions Django's."""
