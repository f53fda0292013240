"""PaceMiddleware: every request decided and paced by sitetxt serve.

A downloader middleware (put it at 543, before RetryMiddleware's 550):

- before each request, ``POST /v1/acquire`` for its URL and the crawler's
  product token: a URL robots.txt disallows is dropped (IgnoreRequest);
  otherwise the request waits ``wait_ms`` for the slot serve reserved for
  it, without blocking the reactor (the call to serve runs in Twisted's
  thread pool, the wait is a ``deferLater``), and goes on;
- after each response, from ``signals.response_downloaded`` (which fires
  before RetryMiddleware turns a 429 or 503 into a retry), ``POST
  /v1/report`` with its status, its Retry-After and the acquire's ticket,
  so that a site's "slow down" pauses it for the whole fleet.

Scrapy's own robots.txt request (RobotsTxtMiddleware's) is let through
unpaced, as serve's own robots.txt fetches are.
"""

import logging
import time

from scrapy import signals
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet import task, threads
from twisted.internet.defer import DeferredList

from .client import DEFAULT_PROFILE, Serve, ServeError, product_token

logger = logging.getLogger(__name__)

# How long a request waits while serve answers "429: later" to its acquire
# (a site booked to serve's --pace-horizon, or the caller's share of it),
# before it is dropped.
MAX_BUSY_SECONDS = 600.0

# The key of Request.meta holding the slot of a paced request: its agent
# and the acquire's ticket (None where serve hands out none).
SLOT_META = "sitetxt_slot"


def _sleep(seconds):
    """A Deferred that fires after seconds, on the reactor's clock."""
    from twisted.internet import reactor  # installed by Scrapy by now

    return task.deferLater(reactor, seconds, lambda: None)


def _own_robots_request(request):
    """Whether request is RobotsTxtMiddleware's fetch of a robots.txt."""
    return bool(request.meta.get("dont_obey_robotstxt")) and urlparse_cached(request).path == "/robots.txt"


class PaceMiddleware:
    """Decides and paces every http(s) request through sitetxt serve.

    Stats: ``sitetxt/acquired`` (slots taken), ``sitetxt/waited`` and
    ``sitetxt/wait_ms`` (requests that waited, and for how long in all),
    ``sitetxt/disallowed``, ``sitetxt/busy`` (acquires serve answered
    "later"), ``sitetxt/reported``, ``sitetxt/report_errors`` and
    ``sitetxt/errors`` (requests dropped because serve could not be
    asked).
    """

    def __init__(self, crawler):
        settings = crawler.settings
        if not settings.getbool("TWISTED_REACTOR_ENABLED", True):
            raise ValueError("sitetxt_scrapy.PaceMiddleware waits on a Twisted reactor: "
                             "TWISTED_REACTOR_ENABLED = False (Scrapy's experimental mode without one) is not supported")
        self.crawler = crawler
        self.serve = Serve.from_settings(settings)
        self.profile = settings.get("SITETXT_PROFILE") or DEFAULT_PROFILE
        agent = settings.get("SITETXT_AGENT") or settings.get("ROBOTSTXT_USER_AGENT") or ""
        self.agent = product_token(agent)
        if agent and not self.agent:
            raise ValueError("sitetxt_scrapy: SITETXT_AGENT %r has no product token (a name such as ExampleBot)" % agent)
        self.default_agent = settings.get("USER_AGENT") or ""
        # The reports still on their way, per site: a request to the site
        # asks for its slot after them, so that a retry of a 429 is paced
        # by the pause the 429 asked for.
        self._reports = {}

    @property
    def stats(self):
        return self.crawler.stats

    @classmethod
    def from_crawler(cls, crawler):
        mw = cls(crawler)
        crawler.signals.connect(mw.response_downloaded, signal=signals.response_downloaded)
        return mw

    def _agent(self, request):
        if self.agent:
            return self.agent
        return product_token(request.headers.get(b"User-Agent") or self.default_agent)

    async def process_request(self, request, spider=None):
        request.meta.pop(SLOT_META, None)
        if not request.url.startswith(("http://", "https://")) or _own_robots_request(request):
            return None
        agent = self._agent(request)
        if not agent:
            self.stats.inc_value("sitetxt/errors")
            raise IgnoreRequest("sitetxt: the User-Agent has no product token to ask serve for (set SITETXT_AGENT)")
        site = urlparse_cached(request).netloc
        pending = self._reports.get(site)
        if pending:
            await maybe_deferred_to_future(DeferredList(list(pending), consumeErrors=True))
        answer, answered = await self._acquire(request, agent)
        if not answer.get("allowed"):
            self.stats.inc_value("sitetxt/disallowed")
            logger.debug("Forbidden by robots.txt (sitetxt: %s): %s", answer.get("reason", ""), request)
            raise IgnoreRequest("Forbidden by robots.txt (sitetxt)")
        self.stats.inc_value("sitetxt/acquired")
        request.meta[SLOT_META] = {"agent": agent, "ticket": answer.get("ticket")}
        wait_ms = answer.get("wait_ms") or 0
        if wait_ms > 0:
            self.stats.inc_value("sitetxt/waited")
            self.stats.inc_value("sitetxt/wait_ms", wait_ms)
            # The slot is wait_ms after serve answered, so at the latest
            # wait_ms after the answer came: the time the answer took to
            # reach the reactor thread is not waited again.
            left = answered + wait_ms / 1000.0 - time.monotonic()
            if left > 0:
                await maybe_deferred_to_future(_sleep(left))
        return None

    def _acquire_now(self, url, agent):
        """The acquire of url, in a thread: serve's answer, and when it came
        (time.monotonic)."""
        answer = self.serve.acquire(url, agent, self.profile)
        return answer, time.monotonic()

    async def _acquire(self, request, agent):
        """serve's answer to the acquire of request and when it came, asked
        again after its Retry-After while serve answers 429."""
        give_up = time.monotonic() + MAX_BUSY_SECONDS
        while True:
            try:
                return await maybe_deferred_to_future(
                    threads.deferToThread(self._acquire_now, request.url, agent))
            except ServeError as e:
                if e.status == 429 and time.monotonic() < give_up:
                    self.stats.inc_value("sitetxt/busy")
                    await maybe_deferred_to_future(_sleep(max(e.retry_after or 1.0, 0.1)))
                    continue
                self.stats.inc_value("sitetxt/errors")
                logger.error("sitetxt: %s dropped: %s", request, e)
                raise IgnoreRequest("sitetxt: %s" % e) from None

    def response_downloaded(self, response, request, spider=None):
        """Reports the response of a paced request to serve, in a thread."""
        slot = request.meta.get(SLOT_META)
        if slot is None:
            return
        site = urlparse_cached(request).netloc
        d = threads.deferToThread(self.serve.report, request.url, response.status,
                                  response.headers.get(b"Retry-After"), slot["agent"], slot["ticket"])
        pending = self._reports.setdefault(site, set())
        pending.add(d)

        def done(result):
            pending.discard(d)
            if not pending:
                self._reports.pop(site, None)
            return result

        def failed(failure):
            self.stats.inc_value("sitetxt/report_errors")
            logger.warning("sitetxt: the report of %s (%d) was not taken: %s",
                           request.url, response.status, failure.getErrorMessage())

        d.addBoth(done)
        d.addCallbacks(lambda _: self.stats.inc_value("sitetxt/reported"), failed)
