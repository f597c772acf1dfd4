"""The referee's tokens share one signature (``games.tokens.short_mac``), and tokens mailed before it became one
still verify: a reply address is itsdangerous' ``value.signature`` under its derived key, a confirmation or
unsubscribe token a plain HMAC under the signing key; both an HMAC-SHA256 cut to 80 bits in lower-case base32."""

from __future__ import annotations

import base64
import hashlib
import hmac

from itsdangerous import Signer

from referee.common.config import Settings
from referee.games import signed
from referee.games.tokens import SALT, make_token, short_mac, signing_key
from referee.store.models import Player

SETTINGS = Settings(referee_address="referee@example.org", gm_secret="gm-secret", signing_key="k" * 32)


def _b32(digest: bytes) -> str:
    return base64.b32encode(digest[:10]).decode().lower()


def test_a_reply_token_is_itsdangerous_form_with_the_short_signature():
    player = Player(id=12, secret="player-secret")
    token = make_token(SETTINGS, player, 4)
    key = Signer(f"{signing_key(SETTINGS)}\0{player.secret}", salt=SALT, digest_method=hashlib.sha256).derive_key()
    assert token == "12.4." + _b32(hmac.new(key, b"12.4", hashlib.sha256).digest())
    assert token.endswith(short_mac(key, b"12.4"))


def test_a_confirmation_token_is_a_plain_hmac_under_the_signing_key():
    token = signed.sign(SETTINGS, "c", 7)
    key = f"{signing_key(SETTINGS)}\0{signed.SALT}".encode()
    assert token == "c.7." + _b32(hmac.new(key, b"c.7", hashlib.sha256).digest())
    assert signed.verify(SETTINGS, "c", token.upper()) == 7   # a mail system may change the case
    assert signed.verify(SETTINGS, "o", token) is None          # another purpose's token is no good
