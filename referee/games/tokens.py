"""Reply addresses that carry a player's key: ``referee+<token>@<domain>``.

A turn mail (or an echo) sets ``Reply-To: referee+12.4.k3x9...@example.org``. A reply that reaches
that address names the player (id 12) and the turn the mail was for (4), and counts as carrying the
player's key, without the player typing it. The token is signed with itsdangerous (HMAC-SHA256) under
``settings.signing_key`` together with the player's own secret, so that a new secret (a GM
``REPLACE``) voids the old tokens. The signature is cut to 80 bits and written in lower-case base32,
because mail systems may change the case of an address's local part, and a local part must stay
under 64 characters.

    reply_address(settings, game, "Twonky", turn=4)  ->  "referee+12.4.k3x9fz2mq7wa4hcd@example.org"
    read_token(session, settings, mail.recipients)   ->  TokenMatch(player, turn=4) or None

The ``+`` is the setting ``address_delimiter`` (``-`` for some mail servers). Where the mail server offers no
sub-addressing, ``reply_token = "subject"`` carries the same token in the subject line instead,
``RR-1 turn 4 results [#12.4.k3x9fz2mq7wa4hcd]`` (the mailer moves it there as the mail goes out:
:mod:`referee.mailer.reply_tokens`); a reply's ``Re: ...`` (or ``AW:``, ``SV:``, ``RE:``) subject brings it
back, and :func:`read_token` finds it there as well as in the addresses.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from itsdangerous import BadSignature, Signer
from itsdangerous.encoding import want_bytes
from sqlalchemy.orm import Session

from ..common.config import Settings
from ..store.models import Game, Player

SALT = "referee.reply-address"
#: bytes of the HMAC kept (80 bits: 16 base32 characters)
SIGNATURE_BYTES = 10
_TAG = re.compile(r"^(\d{1,12})\.(\d{1,6})\.([a-z2-7]{16})$")
#: the token in a subject line: ``[#12.4.k3x9fz2mq7wa4hcd]`` (anywhere: after ``Re:``, ``AW:``, ``Fwd:``...)
SUBJECT_TAG = re.compile(r"\[#\s*(\d{1,12}\.\d{1,6}\.[a-z2-7]{16})\s*\]", re.IGNORECASE)


def signing_key(settings: Settings) -> str:
    """``settings.signing_key``, or (documented default) one derived from the GM secret and the database URL."""
    if settings.signing_key:
        return settings.signing_key
    seed = f"referee-reply-address\0{settings.gm_secret}\0{settings.database_url}"
    return hashlib.sha256(seed.encode()).hexdigest()


def short_mac(key: bytes, value: bytes) -> str:
    """The one signature of the referee's tokens (reply addresses, confirmations, unsubscribe links): an
    HMAC-SHA256 cut to 80 bits, in lower-case base32 (16 characters that survive a change of case)."""
    return base64.b32encode(hmac.new(key, value, hashlib.sha256).digest()[:SIGNATURE_BYTES]).decode().lower()


class _Signer(Signer):
    """itsdangerous' signer (its key derivation and ``value.signature`` form) with :func:`short_mac`."""

    def _mac(self, key: bytes, value: bytes) -> bytes:
        return short_mac(key, value).encode()

    def get_signature(self, value: str | bytes) -> bytes:
        return self._mac(self.derive_key(), want_bytes(value))

    def verify_signature(self, value: str | bytes, sig: str | bytes) -> bool:
        sig = want_bytes(sig).lower()
        value = want_bytes(value)
        return any(hmac.compare_digest(self._mac(self.derive_key(k), value), sig) for k in reversed(self.secret_keys))


def _signer(settings: Settings, player: Player) -> _Signer:
    return _Signer(f"{signing_key(settings)}\0{player.secret}", salt=SALT, digest_method=hashlib.sha256)


def _local_and_domain(settings: Settings) -> tuple[str, str]:
    local, _, domain = settings.referee_address.rpartition("@")
    return local or settings.referee_address, domain or settings.domain


def make_token(settings: Settings, player: Player, turn: int | None = None) -> str:
    return _signer(settings, player).sign(f"{player.id}.{turn or 0}").decode()


def reply_address(settings: Settings, game: Game, robot: str | Player, turn: int | None = None) -> str:
    """The address a reply about ``robot`` in ``game`` (for ``turn``) should go to."""
    if isinstance(robot, Player):
        player = robot
    else:
        key = robot.strip().casefold()
        player = next((p for p in game.players if p.robot_key == key), None)  # type: ignore[assignment]
        if player is None:
            raise LookupError(f"no robot {robot!r} in {game.code}")
    local, domain = _local_and_domain(settings)
    return f"{local}{delimiter(settings)}{make_token(settings, player, turn)}@{domain}"


def delimiter(settings: Settings) -> str:
    """The recipient delimiter of reply addresses (``address_delimiter``; ``+`` when it is empty, for the
    subject-only form whose plus address never leaves the referee)."""
    return settings.address_delimiter or "+"


def subject_tags(subject: str) -> list[str]:
    """The reply tokens written in a subject line, first to last."""
    return [m.group(1).lower() for m in SUBJECT_TAG.finditer(subject or "")]


def reply_to(settings: Settings, turn: int | None = None) -> Callable[[Player], str]:
    """A ``reply_to(player)`` for the turn mails (``referee.reports``): each player's own reply address."""
    return lambda player: reply_address(settings, player.game, player, turn)


@dataclass(frozen=True)
class TokenMatch:
    player: Player
    #: the turn the mail replied to was about (None: not said)
    turn: int | None
    address: str


def read_token(s: Session, settings: Settings, addresses: Iterable[str], subject: str | None = None
               ) -> TokenMatch | None:
    """The player whose valid token is on one of ``addresses`` (a mail's recipients) or in ``subject``."""
    local, _ = _local_and_domain(settings)
    prefix = local.lower() + delimiter(settings)
    found: list[tuple[str, str]] = []
    for address in addresses:
        box, _, _domain = address.strip().lower().rpartition("@")
        if box.startswith(prefix):
            found.append((box[len(prefix):], address))
    found += [(tag, settings.referee_address) for tag in subject_tags(subject or "")]
    for tag, address in found:
        m = _TAG.match(tag)
        if m is None:
            continue
        player = s.get(Player, int(m.group(1)))
        if player is None:
            continue
        try:
            _signer(settings, player).unsign(tag)
        except BadSignature:
            continue
        turn = int(m.group(2))
        return TokenMatch(player, turn or None, address)
    return None
