"""A second private Dovecot that speaks TLS: IMAPS on one port, STARTTLS on the plain one.

Its certificate is self-signed for 127.0.0.1 (made with the openssl command); clients trust it through
an SSL context loading that certificate. Built on the shared test Dovecot's configuration.
"""

from __future__ import annotations

import shutil
import ssl
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.servers.dovecot import CONFIG, DOMAIN, USERS, Dovecot, _ensure_vmail, password
from tests.servers.ports import free_port, wait_for_port


@dataclass
class TlsDovecot(Dovecot):
    imaps_port: int = 0
    cert: Path | None = None

    def client_context(self) -> ssl.SSLContext:
        assert self.cert is not None
        return ssl.create_default_context(cafile=str(self.cert))


def start_tls_dovecot(root: Path) -> TlsDovecot:
    if shutil.which("dovecot") is None or shutil.which("openssl") is None:
        raise RuntimeError("dovecot and openssl are needed (run 'bash .ci/setup' as root)")
    _ensure_vmail()
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o755)
    for sub in ("run", "state", "mail"):
        (root / sub).mkdir(exist_ok=True)
    shutil.chown(root / "mail", "vmail", "vmail")
    cert, key = root / "cert.pem", root / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True, stdin=subprocess.DEVNULL)
    server = TlsDovecot(root, free_port(), free_port(), [f"{u}@{DOMAIN}" for u in USERS], free_port(), cert)
    users = root / "users"
    users.write_text("".join(f"{u}:{{PLAIN}}{password(u)}::::::\n" for u in server.users))
    shutil.chown(users, group="dovecot")
    users.chmod(0o640)
    config = CONFIG.format(root=root, imap_port=server.imap_port, lmtp_port=server.lmtp_port, domain=DOMAIN)
    config = config.replace("ssl = no", f"ssl = yes\nssl_cert = <{cert}\nssl_key = <{key}")
    config = config.replace("inet_listener imaps {\n    port = 0\n  }",
                            f"inet_listener imaps {{\n    address = 127.0.0.1\n    port = {server.imaps_port}\n"
                            "    ssl = yes\n  }")
    assert str(server.imaps_port) in config and "ssl_cert" in config
    server.conf.write_text(config)
    with open(root / "start.log", "ab") as log:
        subprocess.run(["dovecot", "-c", str(server.conf)], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                       check=True)
    for port in (server.imap_port, server.imaps_port):
        wait_for_port(port)
    return server
