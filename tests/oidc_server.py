"""A fake OpenID Connect server on 127.0.0.1 for the tests, speaking the parts a sign-in uses as
Authentik, Keycloak, Authelia or Pocket ID do: the discovery document, the authorization
endpoint (which signs the person in at once and redirects back with a code), the token
endpoint (checks the client's secret and the PKCE verifier, returns an RS256-signed id_token),
userinfo and the JWKS. ``server.requests`` records what it was asked, for assertions."""

import base64
import hashlib
import json
import secrets
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

CLIENT_ID = "syllabus"
CLIENT_SECRET = "s3cret-for-tests"


class FakeOIDCServer:
    def __init__(self, *, person: dict):
        self.person = person  # the claims of whoever "signs in" at the provider
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = "test-key"
        self.codes: dict[str, dict] = {}
        self.tokens: dict[str, dict] = {}
        self.requests: list[tuple[str, str]] = []
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def discovery(self) -> dict:
        return {
            "issuer": self.url,
            "authorization_endpoint": f"{self.url}/authorize",
            "token_endpoint": f"{self.url}/token",
            "userinfo_endpoint": f"{self.url}/userinfo",
            "jwks_uri": f"{self.url}/jwks",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
            "code_challenge_methods_supported": ["S256"],
        }

    def jwks(self) -> dict:
        jwk = json.loads(RSAAlgorithm.to_jwk(self.key.public_key()))
        return {"keys": [{**jwk, "kid": self.kid, "use": "sig", "alg": "RS256"}]}

    def id_token(self, nonce: str | None) -> str:
        now = int(time.time())
        claims = {
            "iss": self.url,
            "aud": CLIENT_ID,
            "iat": now,
            "exp": now + 300,
            **self.person,
        }
        if nonce:
            claims["nonce"] = nonce
        return jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": self.kid})

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _json(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                parts = urlsplit(self.path)
                server.requests.append(("GET", parts.path))
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                if parts.path == "/.well-known/openid-configuration":
                    return self._json(200, server.discovery())
                if parts.path == "/jwks":
                    return self._json(200, server.jwks())
                if parts.path == "/authorize":
                    if query.get("client_id") != CLIENT_ID or query.get("response_type") != "code":
                        return self._json(400, {"error": "invalid_request"})
                    code = secrets.token_urlsafe(16)
                    server.codes[code] = query
                    target = f"{query['redirect_uri']}?" + urlencode(
                        {"code": code, "state": query.get("state", "")}
                    )
                    self.send_response(302)
                    self.send_header("Location", target)
                    self.end_headers()
                    return None
                if parts.path == "/userinfo":
                    token = self.headers.get("Authorization", "").removeprefix("Bearer ")
                    if token not in server.tokens:
                        return self._json(401, {"error": "invalid_token"})
                    return self._json(200, server.person)
                return self._json(404, {"error": "not_found"})

            def do_POST(self):
                parts = urlsplit(self.path)
                server.requests.append(("POST", parts.path))
                length = int(self.headers.get("Content-Length") or 0)
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
                if parts.path != "/token":
                    return self._json(404, {"error": "not_found"})
                client_id, secret = form.get("client_id"), form.get("client_secret")
                basic = self.headers.get("Authorization", "")
                if basic.startswith("Basic "):
                    client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
                grant = server.codes.pop(form.get("code", ""), None)
                if (client_id, secret) != (CLIENT_ID, CLIENT_SECRET) or grant is None:
                    return self._json(400, {"error": "invalid_grant"})
                verifier = form.get("code_verifier", "")
                challenge = (
                    base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
                    .rstrip(b"=")
                    .decode()
                )
                if grant.get("code_challenge") != challenge:
                    return self._json(400, {"error": "invalid_grant", "why": "pkce"})
                access = secrets.token_urlsafe(16)
                server.tokens[access] = grant
                return self._json(
                    200,
                    {
                        "access_token": access,
                        "token_type": "Bearer",
                        "expires_in": 300,
                        "id_token": server.id_token(grant.get("nonce")),
                    },
                )

        return Handler


@contextmanager
def fake_oidc_server(*, person: dict):
    server = FakeOIDCServer(person=person)
    thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()
