"""What the referee says, one module per audience: :mod:`.players`, :mod:`.gm`, :mod:`.strangers`.

One function per message; the callers decide when a message goes and to whom, these modules only
what it says. The tone is the same throughout: plain sentences, what happened, what to do next,
never a quote of the mail's prose to anyone but its sender. The order language's own echo (the
orders on file, the template to correct, HELP, CARDS) is written by :mod:`referee.orders.replies`,
since it must read back as orders; the turn report and the tick's notices have their own modules
(:mod:`referee.reports.mails`, :mod:`referee.cron.tick`).
"""
