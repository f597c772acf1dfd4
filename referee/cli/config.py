"""``referee config init`` and ``referee config show``: the commented sample settings file written out,
and the settings in effect with every secret masked.

The sample (deploy/referee.toml) ships in the wheel with the systemd units and the mail recipes
(``referee/_data/deploy``), so an installed referee can write it without the source checkout.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from ..console.help import CONFIG_META

if TYPE_CHECKING:
    from pathlib import Path

#: words in the names of settings whose values are never shown
SECRET_WORDS = ("password", "secret", "signing_key", "token")
#: settings with a secret word in their name that hold no secret (``reply_token`` says where tokens ride)
NOT_SECRET = frozenset({"reply_token", "oauth2_token_url"})


def deploy_dir() -> Path | None:
    """The shipped deploy files (sample settings, systemd units, mail recipes), or None."""
    from pathlib import Path

    here = Path(__file__).resolve().parents[1]  # the referee package
    for candidate in (here / "_data" / "deploy", here.parent / "deploy"):
        if (candidate / "referee.toml").is_file():
            return candidate
    return None


def sample_text() -> str:
    """The sample settings with a fresh GM secret filled in."""
    import secrets

    found = deploy_dir()
    if found is None:
        raise click.ClickException("the sample settings file is missing from this installation (referee/_data/deploy)")
    text = (found / "referee.toml").read_text()
    secret = secrets.token_urlsafe(18)
    return text.replace('# gm_secret = "..."', f'gm_secret = "{secret}"', 1)


@click.command("init")
@click.argument("path", required=False, type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Overwrite a file that exists.")
def config_init(path: str | None, force: bool) -> None:
    """Write the commented sample settings file to PATH (default: --config, $REFEREE_CONFIG, or
    ./referee.toml; - for standard output), with a fresh random gm_secret. Owner-only (0600).

    Then edit it (addresses, mail servers, paths) and run 'referee config check'. The systemd units and
    mail recipes are shipped beside the sample: their folder is printed at the end.
    """
    target = path or click.get_current_context().meta.get(CONFIG_META) or os.environ.get("REFEREE_CONFIG") \
        or "referee.toml"
    text = sample_text()
    if target == "-":
        click.echo(text, nl=False)
        return
    from pathlib import Path

    out = Path(target)
    if out.exists() and not force:
        raise click.ClickException(f"{out} exists already (--force to overwrite it)")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        out.chmod(0o600)
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc.strerror}") from None
    click.echo(f"wrote {out} (mode 0600, with a new gm_secret); edit it, then: referee --config {out} config check")
    click.echo(f"systemd units and mail recipes: {deploy_dir()}")


@click.command("show")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
def config_show(as_json: bool) -> None:
    """The settings in effect (file, then REFEREE_<NAME> variables), secrets masked."""
    import dataclasses
    import json
    import re
    import sys
    from pathlib import Path

    from ..common.config import ConfigError
    from ..common.config_load import load_settings
    from ..console.support import SettingsError

    try:
        settings = load_settings(click.get_current_context().meta.get(CONFIG_META))
    except ConfigError as exc:
        raise SettingsError(str(exc)) from None
    values = {}
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        if (any(w in f.name for w in SECRET_WORDS) and not f.name.endswith("_file") and f.name not in NOT_SECRET
                and value):
            value = "********"
        values[f.name] = str(value) if isinstance(value, Path) else value
    if "database_url" in values and isinstance(values["database_url"], str):
        values["database_url"] = re.sub(r"(://[^:/@]*:)[^@]*@", r"\1********@", values["database_url"])
    if as_json:
        json.dump(values, sys.stdout, indent=2, default=str)
        click.echo()
        return
    source = settings.config_path or "no file (defaults and REFEREE_* variables)"
    click.echo(f"# settings from {source}")
    for name, value in values.items():
        click.echo(f"{name} = {json.dumps(value, default=str)}")
