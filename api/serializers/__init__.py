"""Request specs (validated input) and response shapes (documented in the OpenAPI schema), by
area: one module per part of the API (common, accounts, games, assists, daily, leaderboards,
players, races).

Responses are produced by `games.public` and the services' `to_dict`; the response
serializers describe those shapes for the schema only.
"""
