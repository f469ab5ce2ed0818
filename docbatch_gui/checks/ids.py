"""Russian registration numbers: whether a value can be what it claims to be.

A misread digit in a tax id or a bank account sends a payment to the wrong party, and
every one of these numbers carries its own check (a control digit or a fixed form), so
a misread is caught without any outside lookup. Each function takes the value as
printed (spaces and dashes allowed) and answers only True or False: a value that is
not even the right length is simply not valid.
"""

from __future__ import annotations

import re

from docbatch_gui.domain.normalize import inn_is_valid

__all__ = [
    "account_key_is_valid",
    "bik_is_valid",
    "digits_of",
    "inn_is_valid",
    "kpp_is_valid",
    "ogrn_is_valid",
]

#: 4 digits (the tax office), 2 digits or capital Latin letters (the reason), 3 digits
_KPP_RE = re.compile(r"\d{4}[\dA-Z]{2}\d{3}")
_BIK_RE = re.compile(r"04\d{7}")
_ACCOUNT_WEIGHTS = (7, 1, 3)
#: balance account 30101: a bank's correspondent account at the Bank of Russia
_CORRESPONDENT_PREFIX = "30101"
_SEPARATORS = re.compile(r"[\s\-‐‑–—]+")


def digits_of(value: str) -> str:
    """The value without the spaces and dashes people print inside long numbers."""
    return _SEPARATORS.sub("", value.strip())


def kpp_is_valid(value: str) -> bool:
    """A KPP has no control digit; its fixed form still catches a misread letter or a
    digit too many or too few."""
    return bool(_KPP_RE.fullmatch(digits_of(value)))


def ogrn_is_valid(value: str) -> bool:
    """OGRN (13 digits, a company) or OGRNIP (15 digits, a sole trader), by
    python-stdnum's ``stdnum.ru.ogrn`` (its length, first digit and control digit).

    One case stdnum refuses wrongly: an OGRNIP's control digit is the *last digit* of
    the rest of its first 14 digits modulo 13 (the tax service's rule), and stdnum
    compares the whole rest, so the three OGRNIPs in thirteen whose rest is 10, 11 or 12
    would fail. Those are checked by the rule here; everything else is stdnum's.
    """
    # deferred: python-stdnum imports pydoc and ssl: 0.09-0.13 s even after the CLI's
    #   modules, for a check most commands never make
    from stdnum.ru import ogrn as stdnum_ogrn

    number = digits_of(value)
    if not number.isdecimal():
        return False
    number = "".join(str(int(ch)) for ch in number)  # any script's digits, as ASCII
    if not number.strip("0"):
        return False
    if stdnum_ogrn.is_valid(number):
        return True
    if len(number) == 15 and number[0] in "34":
        rest = int(number[:14]) % 13
        return rest >= 10 and rest % 10 == int(number[14])
    return False


def bik_is_valid(value: str) -> bool:
    """A Russian bank's BIK: 9 digits, the first two the country code 04."""
    return bool(_BIK_RE.fullmatch(digits_of(value)))


def account_key_is_valid(account: str, bik: str) -> bool:
    """Whether a 20-digit account belongs with ``bik`` by its control key.

    The key (9th digit) makes the weighted sum (7, 1, 3 repeating) of 23 digits end
    in 0: the bank's three digits, then the account. For a client's account the
    three are the BIK's last three; for a bank's correspondent account (30101…) they
    are "0" and the BIK's 5th and 6th digits. A wrong BIK fails as surely as a
    misread account, which is the point: the pair must agree.
    """
    number, code = digits_of(account), digits_of(bik)
    if not (number.isdigit() and len(number) == 20 and bik_is_valid(code)):
        return False
    prefix = "0" + code[4:6] if number.startswith(_CORRESPONDENT_PREFIX) else code[-3:]
    digits = prefix + number
    total = sum(int(d) * _ACCOUNT_WEIGHTS[i % len(_ACCOUNT_WEIGHTS)] for i, d in enumerate(digits))
    return total % 10 == 0
