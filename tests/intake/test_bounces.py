"""Reading delivery failure reports: which mail came back, for whom, and why."""

from __future__ import annotations

from referee.intake.bounces import read_bounce

ORIGINAL = "<rr-7.t3.turn-5c0e21a9d4.b1f0e7c24a95d3e8a6f1@example.test>"

GMAIL_DSN = f"""\
Delivered-To: referee@example.test
Return-Path: <>
From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>
To: referee@example.test
Auto-Submitted: auto-replied
Subject: Delivery Status Notification (Failure)
Message-ID: <6741a8f2.050a0220.1c2b.ABCD.GMR@mx.google.com>
MIME-Version: 1.0
Content-Type: multipart/report; boundary="000000000000d1e2f3"; report-type=delivery-status

--000000000000d1e2f3
Content-Type: text/plain; charset="UTF-8"

Address not found
Your message wasn't delivered to gone.player@gmail.com because the address couldn't be found.

--000000000000d1e2f3
Content-Type: message/delivery-status

Reporting-MTA: dns; googlemail.com
Arrival-Date: Sun, 22 Nov 2026 13:40:11 -0800 (PST)

Final-Recipient: rfc822; gone.player@gmail.com
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550-5.1.1 The email account that you tried to reach does not exist.

--000000000000d1e2f3
Content-Type: message/rfc822

From: RoboRally referee <referee@example.test>
To: gone.player@gmail.com
Subject: RR-7 turn 3 results, your cards for turn 4
Message-ID: {ORIGINAL}

Your cards for turn 4 ...

--000000000000d1e2f3--
"""

EXIM_FAILED = f"""\
From: Mail Delivery System <Mailer-Daemon@mail.players.example>
To: referee@example.test
Subject: Mail delivery failed: returning message to sender
Message-Id: <E1vXyZa-0001Ab-Cd@mail.players.example>

This message was created automatically by mail delivery software.

A message that you sent could not be delivered to one or more of its
recipients. This is a permanent error. The following address(es) failed:

  gone@players.example
    host mail.players.example [192.0.2.7]
    SMTP error from remote mail server after RCPT TO:<gone@players.example>:
    550 5.1.1 <gone@players.example>: Recipient address rejected: User unknown

------ This is a copy of the message, including all the headers. ------

From: RoboRally referee <referee@example.test>
Subject: RR-7 turn 3 results, your cards for turn 4
Message-ID: {ORIGINAL}

Your cards for turn 4 ...
"""

DELAYED = GMAIL_DSN.replace("Action: failed", "Action: delayed").replace("Status: 5.1.1", "Status: 4.4.1")


def test_a_standard_report_names_the_mail_the_recipient_and_the_reason():
    bounce = read_bounce(GMAIL_DSN.encode())
    assert bounce is not None and bounce.action == "failed"
    assert bounce.original_ids == [ORIGINAL]
    assert bounce.recipients == ["gone.player@gmail.com"]
    assert bounce.reason.startswith("5.1.1 smtp; 550-5.1.1 The email account")


def test_exims_plain_text_bounce_is_read_too():
    bounce = read_bounce(EXIM_FAILED.encode())
    assert bounce is not None and bounce.action == "failed" and bounce.original_ids == [ORIGINAL]
    assert bounce.reason.startswith("5.1.1 550 5.1.1 <gone@players.example>")


def test_a_delay_is_not_a_failure():
    bounce = read_bounce(DELAYED.encode())
    assert bounce is not None and bounce.action == "delayed"


def test_a_players_mail_that_talks_about_bounces_is_no_bounce():
    mail = (f"From: alice@example.test\nTo: referee@example.test\nSubject: Re: undeliverable?\n"
            f"Message-ID: <x1@example.test>\n\nDid my last mail bounce?\nMessage-ID: {ORIGINAL}\n")
    assert read_bounce(mail.encode()) is None
