"""Test servers for the real-mail tests: an OAuth2 provider on loopback and an SMTP server that takes XOAUTH2.

:class:`Provider` is both ends of OAuth2 as a mail provider runs them: the token endpoint (``POST /token``,
``grant_type=refresh_token``) that turns a refresh token into an access token, and the token check
(``GET /tokeninfo?access_token=...``) that Dovecot's oauth2 passdb asks before it lets an XOAUTH2 login in.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult

from tests.servers.ports import free_port
from tests.servers.smtp import DovecotHandler


@dataclass
class Provider:
    """Accounts: refresh token -> (client id, user). Each refresh hands out a new access token (valid
    ``lifetime`` seconds as far as the client is told) and, with ``rotate``, a new refresh token."""

    client_id: str = "referee-client"
    client_secret: str = "client-s3cret"
    refresh_tokens: dict[str, str] = field(default_factory=dict)
    access_tokens: dict[str, str] = field(default_factory=dict)
    lifetime: int = 3600
    rotate: bool = False
    #: every POST to the token endpoint, its form as sent
    refreshes: list[dict[str, str]] = field(default_factory=list)
    checks: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_port}"

    def refresh(self, form: dict[str, str]) -> tuple[int, dict[str, object]]:
        with self.lock:
            self.refreshes.append(form)
            if form.get("grant_type") != "refresh_token":
                return 400, {"error": "unsupported_grant_type"}
            if form.get("client_id") != self.client_id or form.get("client_secret") != self.client_secret:
                return 401, {"error": "invalid_client", "error_description": "client authentication failed"}
            user = self.refresh_tokens.get(form.get("refresh_token", ""))
            if user is None:
                return 400, {"error": "invalid_grant", "error_description": "the refresh token is expired or revoked"}
            token = "at-" + secrets.token_urlsafe(12)
            self.access_tokens[token] = user
            answer: dict[str, object] = {"access_token": token, "token_type": "Bearer", "expires_in": self.lifetime}
            if self.rotate:
                newer = "rt-" + secrets.token_urlsafe(12)
                self.refresh_tokens[newer] = user
                answer["refresh_token"] = newer
            return 200, answer

    def user_of(self, token: str) -> str | None:
        with self.lock:
            self.checks += 1
            return self.access_tokens.get(token)

    def start(self) -> Provider:
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, status: int, data: dict[str, object]) -> None:
                body = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
                self._answer(*provider.refresh(form))

            def do_GET(self) -> None:
                query = parse_qs(urlparse(self.path).query)
                user = provider.user_of((query.get("access_token") or [""])[0])
                if user is None:
                    self._answer(401, {"error": "invalid_token"})
                else:
                    self._answer(200, {"email": user, "active": True})

            def log_message(self, *args: object) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


class OAuthSmtpHandler(DovecotHandler):
    """Delivers into Dovecot like the suite's SMTP server, and takes ``AUTH XOAUTH2`` logins whose token the
    provider knows for that user (as Gmail's and Microsoft's submission servers do)."""

    def __init__(self, lmtp_port: int, provider: Provider) -> None:
        super().__init__(lmtp_port)
        self.provider = provider
        self.logins: list[str] = []

    async def auth_XOAUTH2(self, server: SMTP, args: list[str]) -> AuthResult:
        if len(args) < 2:  # ["XOAUTH2", initial response]
            return AuthResult(success=False, handled=False, message="501 5.5.2 initial response required")
        try:
            fields = base64.b64decode(args[1]).decode().split("\x01")
        except (ValueError, UnicodeDecodeError):
            return AuthResult(success=False, handled=False, message="501 5.5.2 cannot decode")
        user = next((f[5:] for f in fields if f.startswith("user=")), "")
        token = next((f[12:] for f in fields if f.startswith("auth=Bearer ")), "")
        ok = bool(user) and self.provider.user_of(token) == user
        self.logins.append(f"{user}:{'ok' if ok else 'refused'}")
        if not ok:
            return AuthResult(success=False, handled=False,
                              message="535 5.7.8 Username and Password not accepted (invalid token)")
        return AuthResult(success=True, auth_data=user)


def start_oauth_smtp(lmtp_port: int, provider: Provider) -> tuple[Controller, OAuthSmtpHandler, int]:
    port = free_port()
    handler = OAuthSmtpHandler(lmtp_port, provider)
    controller = Controller(handler, hostname="127.0.0.1", port=port, auth_require_tls=False, auth_required=True)
    controller.start()
    return controller, handler, port
