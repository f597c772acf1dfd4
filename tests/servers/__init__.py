"""Real servers on loopback for the tests: Dovecot (IMAP + LMTP) and an SMTP server delivering into it."""
