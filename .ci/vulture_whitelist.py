"""Names vulture (``.ci/deadcode``) takes for dead code that are used, each with where and why."""

files_key  # noqa: B018, F821  referee.boards._load_cached: a parameter that is only the lru_cache's key (files changed)
