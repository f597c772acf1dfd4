"""DKIM signatures on outgoing mail (dkimpy), when ``dkim_key_file`` is set.

Every mail is signed as it is handed to the transport (SMTP or Maildir), so the outbox keeps the mail as
written and a resend is signed afresh. The signature covers the headers a receiver shows or threads by
(From, To, Cc, Subject, Date, Message-ID, Reply-To, In-Reply-To, References, MIME headers) with relaxed
canonicalization, which survives the header folding relays do. The public key goes in DNS as a TXT record
at ``<dkim_selector>._domainkey.<dkim_domain>`` (deploy/README.md says how to make both).
"""

from __future__ import annotations

from dataclasses import dataclass

import dkim  # type: ignore[import-untyped]

from ..common.config import ConfigError, Settings

SIGNED_HEADERS = (b"from", b"to", b"cc", b"subject", b"date", b"message-id", b"reply-to", b"in-reply-to",
                  b"references", b"mime-version", b"content-type", b"content-transfer-encoding", b"auto-submitted")


@dataclass(frozen=True)
class Signer:
    selector: bytes
    domain: bytes
    key: bytes

    def sign(self, raw: bytes) -> bytes:
        """``raw`` with a ``DKIM-Signature`` header in front."""
        present = {line.split(b":", 1)[0].strip().lower() for line in _head(raw).splitlines()
                   if b":" in line and line[:1] not in (b" ", b"\t")}
        headers = [h for h in SIGNED_HEADERS if h in present] or [b"from"]
        try:
            signature: bytes = dkim.sign(raw, self.selector, self.domain, self.key,
                                         canonicalize=(b"relaxed", b"relaxed"), include_headers=headers,
                                         linesep=_linesep(raw))
        except dkim.DKIMException as exc:
            raise ConfigError(f"dkim_key_file: cannot sign with it: {exc}") from None
        return signature + raw


def _head(raw: bytes) -> bytes:
    return raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]


def _linesep(raw: bytes) -> bytes:
    return b"\r\n" if b"\r\n" in raw[:2000] else b"\n"


def signer_for(settings: Settings) -> Signer | None:
    """The signer the settings ask for, or None without ``dkim_key_file``. A key that cannot be read or is
    not a private key is a :class:`ConfigError`."""
    if not settings.dkim_key_file:
        return None
    path = settings.path(settings.dkim_key_file)
    try:
        key = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"dkim_key_file {path}: cannot read it ({exc.strerror or exc})") from None
    if b"PRIVATE KEY" not in key:
        raise ConfigError(f"dkim_key_file {path}: not a PEM private key")
    domain = settings.dkim_domain or settings.referee_address.rpartition("@")[2] or settings.domain
    if not settings.dkim_selector:
        raise ConfigError("dkim_selector is empty")
    return Signer(settings.dkim_selector.encode(), domain.encode(), key)
