"""Sending notifications: the mails over smtplib (`send_mails`), the webhook's JSON over urllib
(`post_webhook`); every failure a one-line UsageError naming the server, nothing printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import UsageError, excerpt, safe
from .notify_settings import MAX_CONFIG_BYTES, TIMEOUT, Smtp, check_sender, check_url, password, url_label

if TYPE_CHECKING:
    from email.message import EmailMessage

# -- a mail ---------------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Mail:
    """One mail to send: who it is for (a player's name, or ""), the addresses, and the message."""

    name: str
    addresses: tuple[str, ...]
    message: EmailMessage

    @property
    def recipient(self) -> str:
        """`ann <ann@example.org>`, or the addresses."""
        if self.name and len(self.addresses) == 1:
            return f"{self.name} <{self.addresses[0]}>"
        return ", ".join(self.addresses)


# -- sending ----------------------------------------------------------------------------------


def send_mails(smtp: Smtp, mails: Sequence[Mail], *, env: Mapping[str, str] | None = None) -> list[str]:
    """Send each mail over one connection to the server; a line per mail sent.

    Raises:
        UsageError: no From address, the server cannot be reached, refuses the login or a mail
            (one line naming the server and how many mails were sent before).
    """
    import smtplib
    import ssl

    if not mails:
        return []
    if not smtp.sender:
        raise UsageError("no From address for the mails: set splendor.smtp.from (git config) or [smtp] from")
    sender = check_sender(smtp.sender, "splendor.smtp.from")
    secret = password(smtp, env) if smtp.user else ""
    sent: list[str] = []
    try:
        context = ssl.create_default_context()
        client: smtplib.SMTP
        if smtp.security == "tls":
            client = smtplib.SMTP_SSL(smtp.host, smtp.port, timeout=TIMEOUT, context=context)
        else:
            client = smtplib.SMTP(smtp.host, smtp.port, timeout=TIMEOUT)
        with client:
            client.ehlo()
            if smtp.security == "starttls":
                client.starttls(context=context)
                client.ehlo()
            if smtp.user:
                client.login(smtp.user, secret)
            for mail in mails:
                client.send_message(mail.message, from_addr=sender, to_addrs=list(mail.addresses))
                sent.append(f"mailed {mail.recipient} via {smtp.server}: {mail.message['Subject']}")
    except smtplib.SMTPAuthenticationError as exc:
        raise UsageError(f"mail server {smtp.server}: login as {excerpt(smtp.user)} refused ({_reason(exc)})") from None
    except (smtplib.SMTPException, OSError) as exc:
        done = f"; {len(sent)} of {len(mails)} mails sent" if sent else "; no mail sent"
        raise UsageError(f"mail server {smtp.server}: {_reason(exc)}{done}") from None
    return [safe(line) for line in sent]


def _reason(exc: BaseException) -> str:
    """Why the server failed, in one short line."""
    import smtplib
    import socket

    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return "refused the recipient " + ", ".join(excerpt(r) for r in list(exc.recipients)[:3])
    if isinstance(exc, smtplib.SMTPResponseException):
        said = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)
        return f"{exc.smtp_code} {safe(' '.join(said.split()))[:160]}"
    if isinstance(exc, smtplib.SMTPNotSupportedError):
        return f"{safe(str(exc))[:160]} (is splendor.smtp.security right?)"
    if isinstance(exc, TimeoutError | socket.timeout):
        return f"no answer within {TIMEOUT:g} s"
    if isinstance(exc, socket.gaierror):
        return f"unknown host ({exc.strerror})"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    text = " ".join(str(exc).split()) or type(exc).__name__
    return safe(text)[:160]


def post_webhook(url: str, payload: Mapping[str, Any], *, timeout: float = TIMEOUT) -> str:
    """POST `payload` as JSON to `url` (a redirect is an error); a line saying so.

    Raises:
        UsageError: the server cannot be reached or answers an error (the message names the
            server, never the URL's path, which may hold a token).
    """
    import json
    import urllib.error
    import urllib.request

    from .. import __version__

    label = url_label(url)
    check_url(url, "the webhook URL")
    request = urllib.request.Request(
        url,
        data=json.dumps(payload, ensure_ascii=True).encode("ascii"),
        headers={"Content-Type": "application/json", "User-Agent": f"splendor-cli/{__version__}"},
        method="POST",
    )
    try:
        # urllib follows a 301/302/303 as a GET without the payload (and refuses a 307/308 of a
        # POST): whatever answers then, the webhook did not get the notification
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read(MAX_CONFIG_BYTES)
            status = int(response.status)
            redirected = response.geturl() != url
    except urllib.error.HTTPError as exc:
        hint = " (a redirect: give the final URL)" if 300 <= exc.code < 400 else ""
        raise UsageError(f"webhook {label}: HTTP {exc.code} {safe(str(exc.reason))[:80]}{hint}") from None
    except urllib.error.URLError as exc:
        reason = exc.reason if isinstance(exc.reason, BaseException) else OSError(str(exc.reason))
        raise UsageError(f"webhook {label}: {_reason(reason)}") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"webhook {label}: {_reason(exc)}") from None
    if redirected:
        raise UsageError(f"webhook {label}: it redirects elsewhere, so nothing was posted: give the final URL")
    return f"posted to {label}: HTTP {status}"
