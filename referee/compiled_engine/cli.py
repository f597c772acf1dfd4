"""``referee compile-engine``: compile the engine for this checkout and say whether it is used."""

from __future__ import annotations

import os
from pathlib import Path

import click

from . import PURE_VARIABLE, find_build, installation_dir


@click.command("compile-engine")
@click.option("--opt-level", type=click.IntRange(0, 3), default=None,
              help="The C compiler's optimisation level (default: 3, the fastest turns).")
@click.option("--installation", is_flag=True,
              help="Into the installation's folder (<sys.prefix>/share/referee/engine), seen by every user of it.")
@click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True,
              help="C files compiled at once.")
def compile_engine_command(opt_level: int | None, installation: bool, jobs: int) -> None:
    """Compile the rules engine to C with mypyc (a few minutes), for turns about 1.5x faster.

    The build goes to the cache ($REFEREE_ENGINE_DIR, else $REFEREE_CACHE_DIR/engine, else
    ~/.cache/referee/engine), or with --installation to the installation's own folder, under the key of the
    engine's sources; referee processes then load it while the sources are unchanged, and the pure engine
    otherwise (or with REFEREE_PURE_ENGINE=1). Run it again after each install or upgrade. Needs a C
    compiler and the Python headers.
    """
    from .build import DEFAULT_OPT_LEVEL, BuildError, build

    try:
        built = build(DEFAULT_OPT_LEVEL if opt_level is None else opt_level, jobs=jobs,
                      root=Path(installation_dir()) if installation else None)
    except OSError as exc:
        raise click.ClickException(f"cannot write the build: {exc}") from None
    except BuildError as exc:
        raise click.ClickException(str(exc)) from None
    if built.fresh:
        click.echo(f"compiled the engine ({built.how}) in {built.seconds:.0f} s: {built.folder}")
    else:
        click.echo(f"already compiled for these sources ({built.how}): {built.folder}")
    found = find_build()
    if found is None:
        click.echo("not active: referee processes do not look there (is $REFEREE_ENGINE_DIR set elsewhere?)")
    elif found[0] != str(built.folder):
        click.echo(f"active, from a newer build of the same sources: {found[0]}")
    elif os.environ.get(PURE_VARIABLE) == "1":
        click.echo(f"not active in this shell: {PURE_VARIABLE}=1 keeps the pure engine")
    else:
        click.echo("active: referee processes load it while the engine's sources stay as they are")
