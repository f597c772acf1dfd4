"""A private Dovecot (IMAP + LMTP) on loopback ports, its mail and config under a temporary directory.

Dovecot 2.3 (Debian 12). It is started with its output sent to a log file (a daemon holding the
caller's stderr pipe hangs the caller), refuses uid 0 for mail (a ``vmail`` system user owns the
mail), and every user is provisioned before it starts (users added later fail their first login).
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .ports import free_port, wait_for_port

DOMAIN = "example.test"
USERS = ["referee", "gm", "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi",
         *(f"player{i}" for i in range(1, 21))]


def password(user: str) -> str:
    return f"{user.split('@')[0]}-pw"


CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
instance_name = referee-test-{imap_port}
log_path = {root}/dovecot.log
info_log_path = {root}/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
postmaster_address = postmaster@{domain}
first_valid_uid = 1
mail_uid = vmail
mail_gid = vmail
mail_location = maildir:{root}/mail/%u/Maildir
mail_fsync = never
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {root}/users
  default_fields = home={root}/mail/%u
}}
namespace inbox {{
  inbox = yes
  separator = /
  mailbox Processed {{
    auto = subscribe
  }}
  mailbox Sent {{
    auto = subscribe
    special_use = \\Sent
  }}
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp_port}
  }}
  unix_listener lmtp {{
    mode = 0666
  }}
}}
service auth {{
  unix_listener auth-userdb {{
    mode = 0666
  }}
}}
"""


@dataclass
class Dovecot:
    root: Path
    imap_port: int
    lmtp_port: int
    users: list[str] = field(default_factory=list)

    @property
    def conf(self) -> Path:
        return self.root / "dovecot.conf"

    def address(self, user: str) -> str:
        return f"{user}@{DOMAIN}"

    def doveadm(self, *args: str) -> str:
        out = subprocess.run(["doveadm", "-c", str(self.conf), *args], capture_output=True, text=True,
                             check=True, stdin=subprocess.DEVNULL)
        return out.stdout

    def empty(self, user: str, mailbox: str = "INBOX") -> None:
        """Delete every message of one mailbox (between tests)."""
        self.doveadm("expunge", "-u", self.address(user), "mailbox", mailbox, "all")

    def stop(self) -> None:
        """Kill the server (its mail is thrown away): ``dovecot stop`` waits 3-8 s for a graceful shutdown at the
        end of every test worker. Its processes follow their master within milliseconds."""
        try:
            master = int((self.root / "run" / "master.pid").read_text())
            os.kill(master, signal.SIGKILL)
        except (FileNotFoundError, ValueError, ProcessLookupError):
            return
        began = time.monotonic()
        while time.monotonic() - began < 10:
            try:   # gone, or dead and not yet reaped by whoever adopted the daemon
                if Path(f"/proc/{master}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX":
                    return
            except (FileNotFoundError, ProcessLookupError):
                return
            time.sleep(0.01)


def _ensure_vmail() -> None:
    try:
        pwd.getpwnam("vmail")
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "vmail"],
                       check=True)


OAUTH2_PASSDB = """\
passdb {{
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = {root}/oauth2.conf.ext
}}
"""
OAUTH2_CONF = """\
tokeninfo_url = {tokeninfo_url}
introspection_mode = auth
username_attribute = email
"""


def start_dovecot(root: Path, *, delimiter: str = "+", tokeninfo_url: str | None = None) -> Dovecot:
    """Start Dovecot under ``root`` (a fresh directory). Needs root and Debian's dovecot-imapd/-lmtpd.

    ``delimiter``: its ``recipient_delimiter`` (``+`` is Dovecot's default). ``tokeninfo_url``: also take
    XOAUTH2 and OAUTHBEARER logins, each token checked by a GET of that URL with the token appended (Dovecot's
    oauth2 passdb); the answer's ``email`` must be the user."""
    if shutil.which("dovecot") is None:
        raise RuntimeError("dovecot is not installed: run 'bash .ci/setup' as root (apt: dovecot-imapd dovecot-lmtpd)")
    _ensure_vmail()
    root.mkdir(parents=True, exist_ok=True)
    os.chmod(root, 0o755)
    for sub in ("run", "state", "mail"):
        (root / sub).mkdir(exist_ok=True)
    shutil.chown(root / "mail", "vmail", "vmail")
    server = Dovecot(root, free_port(), free_port(), [f"{u}@{DOMAIN}" for u in USERS])
    users = root / "users"
    users.write_text("".join(f"{u}:{{PLAIN}}{password(u)}::::::\n" for u in server.users))
    shutil.chown(users, group="dovecot")
    os.chmod(users, 0o640)
    oauth2 = ""
    if tokeninfo_url is not None:
        (root / "oauth2.conf.ext").write_text(OAUTH2_CONF.format(tokeninfo_url=tokeninfo_url))
        oauth2 = OAUTH2_PASSDB.format(root=root)
    config = CONFIG.format(root=root, imap_port=server.imap_port, lmtp_port=server.lmtp_port, domain=DOMAIN)
    config = config.replace("auth_mechanisms = plain login\n", "auth_mechanisms = plain login"
                            + (" xoauth2 oauthbearer" if oauth2 else "") + f"\nrecipient_delimiter = {delimiter}\n")
    server.conf.write_text(config.replace("passdb {\n", oauth2 + "passdb {\n", 1))
    log = open(root / "start.log", "ab")  # noqa: SIM115 (the daemon inherits it)
    subprocess.run(["dovecot", "-c", str(server.conf)], stdin=subprocess.DEVNULL, stdout=log, stderr=log, check=True)
    log.close()
    wait_for_port(server.imap_port)
    wait_for_port(server.lmtp_port)
    return server


@contextmanager
def running_dovecot(prefix: str = "referee-dovecot-", *, delimiter: str = "+",
                    tokeninfo_url: str | None = None) -> Iterator[Dovecot]:
    """A private Dovecot (as :func:`start_dovecot` makes it), stopped and removed afterwards.

    Its directory is not under pytest's tmp (mode 0700): Dovecot's own users must reach the files.
    """
    root = Path(tempfile.mkdtemp(prefix=prefix))
    server = start_dovecot(root, delimiter=delimiter, tokeninfo_url=tokeninfo_url)
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
