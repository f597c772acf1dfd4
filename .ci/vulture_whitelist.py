"""Names vulture (``.ci/deadcode``) takes for dead code that are used, each with where and why."""

files_key  # noqa: B018, F821  referee.boards._load_cached: a parameter that is only the lru_cache's key (files changed)

# -- called by a framework or the standard library, never by name in our code --------------------------------------
__getattr__  # noqa: B018, F821  PEP 562 lazy attributes of archive, intake, mailer, store, render.board_image
format_commands  # noqa: B018, F821  console/help.py: click.Group calls it to write a command list
short_help  # noqa: B018, F821  console/help.py: click reads a command's short help
converter  # noqa: B018, F821  common/logs.py: logging.Formatter.converter (UTC times in the log)
wait_data  # noqa: B018, F821  intake/imap_commands.py: aioimaplib's response reader asks it whether a FETCH is whole
verify_signature  # noqa: B018, F821  games/tokens.py: itsdangerous.Signer.unsign calls it (the reply tokens' MAC)
get_signature  # noqa: B018, F821  games/tokens.py: itsdangerous.Signer.sign calls it (the reply tokens' MAC)
_write_lines  # noqa: B018, F821  store/wire.py: email.generator.BytesGenerator's writer, overridden
_write_headers  # noqa: B018, F821  store/wire.py: email.generator.BytesGenerator's writer, overridden
finalize  # noqa: B018, F821  render/templates.py: jinja2.Environment.finalize (None printed as nothing)
body_width  # noqa: B018, F821  orders/mailtext.py: html2text's settings (how an HTML-only mail becomes text)
ignore_images  # noqa: B018, F821  html2text setting
ignore_emphasis  # noqa: B018, F821  html2text setting
ignore_links  # noqa: B018, F821  html2text setting
unicode_snob  # noqa: B018, F821  html2text setting
game_over  # noqa: B018, F821  render/report_types.py PrivateSection: read by templates/private.{txt,html}

# -- SQLAlchemy: the mapping, column types, and columns written for the record (read by SQL, the GM, the archive) --
type_annotation_map  # noqa: B018, F821  store/models.py: SQLAlchemy's DeclarativeBase reads it
impl  # noqa: B018, F821  store/types.py: SQLAlchemy TypeDecorator
cache_ok  # noqa: B018, F821  store/types.py: SQLAlchemy TypeDecorator
process_bind_param  # noqa: B018, F821  store/types.py: SQLAlchemy TypeDecorator
process_result_value  # noqa: B018, F821  store/types.py: SQLAlchemy TypeDecorator
isolation_level  # noqa: B018, F821  store/db.py: the sqlite3 connection's (SQLAlchemy begins transactions itself)
joined_at  # noqa: B018, F821  store/models.py Player: when a player joined (kept in the database)
left_at  # noqa: B018, F821  players and observers: when they left (kept in the database)
outgoing_mail_id  # noqa: B018, F821  store/models.py: a foreign key column
updated_at  # noqa: B018, F821  store rows: when they last changed (kept in the database)
added_at  # noqa: B018, F821  game masters: when a GM was added (kept in the database)
added_by  # noqa: B018, F821  game masters: who added a GM (kept in the database)
secret_changed_at  # noqa: B018, F821  game masters: when a GM's key last changed (kept in the database)
removed_at  # noqa: B018, F821  game masters: when a GM was removed (kept in the database)
decided_at  # noqa: B018, F821  sign-ups: when the GM accepted or refused (kept in the database)
confirmed_at  # noqa: B018, F821  observers: when the subscription was confirmed (kept in the database)

# -- settings read by name (getattr(settings, f"{kind}_...")) in mailer/config_checks.py and doctor/ ---------------
smtp_tls  # noqa: B018, F821
smtp_password  # noqa: B018, F821
smtp_password_file  # noqa: B018, F821
oauth2_client_secret  # noqa: B018, F821
oauth2_client_secret_file  # noqa: B018, F821
oauth2_refresh_token  # noqa: B018, F821
oauth2_refresh_token_file  # noqa: B018, F821

# -- public entry points named by string or kept as the package's API --------------------------------------------
process_stored  # noqa: B018, F821  referee.intake: the package's API (in __all__), for an MTA hook
process_mail  # noqa: B018, F821  referee.intake: the package's API (lazy attribute), one stored mail
docs_tables  # noqa: B018, F821  games/states.py: printed to paste the state tables into the docs (docs/architecture.md)

# -- outbound budgets read by name (getattr(budgets, name)) from store/outbound.py's RULES -------------------------
never_asked_per_day  # noqa: B018, F821

# -- render/mail.py's plain headers: the email package's header classes read these (their properties) ------------
_defects  # noqa: B018, F821  email.headerregistry.BaseHeader.defects
_parse_tree  # noqa: B018, F821  email.headerregistry.BaseHeader.fold (a plain header folds without it)
_params  # noqa: B018, F821  email.headerregistry.ParameterizedMIMEHeader.params
_maintype  # noqa: B018, F821  email.headerregistry.ContentTypeHeader.maintype
_subtype  # noqa: B018, F821  email.headerregistry.ContentTypeHeader.subtype
_content_disposition  # noqa: B018, F821  email.headerregistry.ContentDispositionHeader.content_disposition

# -- compiled_engine: attributes read by the import system and by setuptools' build_ext ----------------------------
has_location  # noqa: B018, F821  importlib: a spec with a location sets the module's __file__
build_lib  # noqa: B018, F821  setuptools build_ext: where the extension modules go
build_temp  # noqa: B018, F821  setuptools build_ext: where the object files go
parallel  # noqa: B018, F821  setuptools build_ext: extensions built at once
