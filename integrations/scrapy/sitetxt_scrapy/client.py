"""The calls sitetxt_scrapy makes to a ``sitetxt serve``, with nothing but
the standard library: ``POST /v1/acquire`` before a request, ``POST
/v1/report`` after its response, ``POST /v1/test`` for Scrapy's robots.txt
parser. Each call blocks its thread: PaceMiddleware makes them in Twisted's
thread pool, RobotParser on the reactor thread (Scrapy calls ``allowed``
there), a loopback call of a millisecond or two.
"""

import email.utils
import json
import time
import urllib.error
import urllib.request

DEFAULT_PROFILE = "rfc9309"
DEFAULT_TIMEOUT = 10.0

# RFC 9309 2.5: a crawler parses at least 500 KiB of a robots.txt; sitetxt
# reads that much of a fetched file (fetch.DefaultMaxSize) and ignores the
# rest. RobotParser sends at most that much of the body Scrapy fetched.
MAX_ROBOTS_BYTES = 500 << 10

_NAME_END = set('"(),/:;<=>?@[\\]{}')


def product_token(user_agent):
    """Return the crawler name a User-Agent header starts with, as sitetxt's
    robots.CrawlerName finds it: "ExampleBot" for
    "ExampleBot/1.0 (+https://example.org/bot)", and "" when the header does
    not start with a name ("*", "(compatible)"). Bytes are read as Latin-1,
    the way HTTP header bytes are."""
    if isinstance(user_agent, bytes):
        user_agent = user_agent.decode("latin-1")
    s = (user_agent or "").lstrip(" \t")
    i = 0
    while i < len(s) and not (s[i] <= " " or s[i] == "\x7f" or s[i] in _NAME_END):
        i += 1
    name = s[:i]
    return "" if name.startswith("*") else name


def retry_after_seconds(value, now=None):
    """Return the seconds a Retry-After value asks for (a number of seconds or
    an HTTP date), or None when it is neither."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def acquire_body(url, agent, profile):
    """The body of POST /v1/acquire."""
    return {"url": url, "agent": agent, "profile": profile}


def report_body(url, status, retry_after, agent, ticket):
    """The body of POST /v1/report. The agent and the ticket go with it only
    when the acquire's answer carried a ticket: a serve that hands out none
    refuses fields it does not know, and one that hands them out refuses a
    report without its ticket."""
    if isinstance(retry_after, bytes):
        retry_after = retry_after.decode("latin-1")
    body = {"url": url, "status": status, "retry_after": retry_after or ""}
    if ticket:
        body["agent"] = agent
        body["ticket"] = ticket
    return body


def robots_text(body):
    """The text of a robots.txt body as RobotParser sends it: UTF-8 (bytes
    that are not are replaced by U+FFFD), at most MAX_ROBOTS_BYTES of it."""
    if isinstance(body, str):
        body = body.encode("utf-8", "replace")
    return (body or b"")[:MAX_ROBOTS_BYTES].decode("utf-8", "replace")


class ServeError(Exception):
    """serve could not be asked, or answered with an error. ``status`` is
    the HTTP status of its answer (0: no answer), ``retry_after`` its
    Retry-After in seconds when it said "429: later"."""

    def __init__(self, message, status=0, retry_after=None):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class Serve:
    """A client of one ``sitetxt serve``: its URL, the bearer token of its
    ``--token-file`` (if any) and a timeout per call, in seconds."""

    def __init__(self, url, token="", timeout=DEFAULT_TIMEOUT):
        if not url:
            raise ValueError(
                "sitetxt_scrapy: set SITETXT_URL to the sitetxt serve to ask "
                "(for example http://127.0.0.1:8080)")
        self.url = url.rstrip("/")
        self.token = token or ""
        self.timeout = float(timeout)
        # No proxy from the environment: serve is beside the crawler.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    @classmethod
    def from_settings(cls, settings):
        """The Serve that Scrapy settings name: SITETXT_URL, SITETXT_TOKEN,
        SITETXT_TIMEOUT."""
        return cls(settings.get("SITETXT_URL"), settings.get("SITETXT_TOKEN", ""),
                   settings.getfloat("SITETXT_TIMEOUT", DEFAULT_TIMEOUT))

    def post(self, path, body):
        """POST body as JSON to path and return the decoded answer; raise
        ServeError when serve cannot be reached or answers an error."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        req = urllib.request.Request(self.url + path, json.dumps(body).encode("utf-8"), headers)
        try:
            with self._opener.open(req, timeout=self.timeout) as resp:
                return json.load(resp)
        except urllib.error.HTTPError as e:
            with e:
                try:
                    msg = json.load(e).get("error", "")
                except (ValueError, AttributeError, OSError):
                    msg = ""
                ra = retry_after_seconds(e.headers.get("Retry-After"))
            raise ServeError("%s %s answered %d %s" % (path, self.url, e.code, msg), e.code, ra) from None
        except (OSError, ValueError) as e:
            raise ServeError("%s %s: %s" % (path, self.url, e)) from None

    def acquire(self, url, agent, profile):
        """POST /v1/acquire: the decision for url and, when it may be
        fetched, the slot reserved for it (``wait_ms``, and ``ticket`` where
        serve hands them out)."""
        return self.post("/v1/acquire", acquire_body(url, agent, profile))

    def report(self, url, status, retry_after, agent, ticket):
        """POST /v1/report: what a fetch of url answered."""
        return self.post("/v1/report", report_body(url, status, retry_after, agent, ticket))

    def decide(self, text, agent, url, profile):
        """POST /v1/test: whether agent may fetch url under the robots.txt
        text, read as profile reads it; the verdict object."""
        answer = self.post("/v1/test", {"robots": text, "agent": agent or "*", "urls": [url], "profiles": [profile]})
        try:
            return answer["results"][0]["verdicts"][0]
        except (KeyError, IndexError, TypeError):
            raise ServeError("/v1/test %s: an answer without a verdict" % self.url) from None
