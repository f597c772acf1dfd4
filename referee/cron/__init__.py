"""What cron runs: the tick (poll, process, resolve what is due, send) and its workers."""
