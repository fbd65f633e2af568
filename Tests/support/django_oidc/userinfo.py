def userinfo(claims, user):
    """Standard claims for `user` (OIDC_USERINFO); oidc_provider keeps only those the granted scopes allow."""
    claims["name"] = user.get_full_name()
    claims["given_name"] = user.first_name
    claims["family_name"] = user.last_name
    claims["email"] = user.email
    # Django has no notion of a verified address; every seeded user's address counts as verified.
    claims["email_verified"] = True
    return claims
