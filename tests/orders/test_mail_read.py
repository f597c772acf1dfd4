"""A mail's text is read once (issue 34): what the sender wrote and the order form she filled in within the
quote are found before anyone knows whose robot it is; the orders are then read from that with the robot's
hand, as reading the whole text again would read them, and reading them changes nothing that was read."""

from referee.orders import read_orders, read_reply

from .test_extract import FIVE, FULL, GMAIL_REPLY_FILLED


def test_a_reply_with_only_a_filled_in_quoted_form_offers_that_form_with_its_begin_line():
    read = read_reply(GMAIL_REPLY_FILLED)
    assert read.own.header is None and read.own.quoted_block
    assert read.form is not None and read.form.header is not None and read.form.header.robot == "Twonky"


def test_the_form_read_once_gives_the_orders_reading_the_text_again_would():
    read = read_reply(GMAIL_REPLY_FILLED)
    once = read.orders(FULL, quoted=True, game="RR-7", robot="Twonky", turn=4, key="8f3k2q")
    again = read_orders(GMAIL_REPLY_FILLED, FULL, game="RR-7", robot="Twonky", turn=4, key="8f3k2q",
                        quoted_form=True)
    assert once[0] == again[0] and once[1].program == again[1].program == FIVE
    assert read.orders(FULL, quoted=True, game="RR-7", robot="Twonky", turn=4, key="8f3k2q")[0].notes == \
        once[0].notes   # reading the orders twice adds no note twice: what was read once is not changed


def test_orders_of_her_own_leave_the_quote_unread():
    read = read_reply("1: FWD2 670\n2: FWD1 500\n3: LF90 90\n4: RT90 80\n5: UTRN 10\n" + GMAIL_REPLY_FILLED)
    assert read.form is None
    found, result = read.orders(FULL)
    assert not found.from_quote and result.ok and result.program == FIVE


def test_a_mail_without_text_has_nothing_to_read():
    read = read_reply(None)
    assert read.text == "" and read.form is None and read.own.header is None
    assert [e.message for e in read.orders(None)[1].errors] == ["I found no orders in this mail"]
