"""Unit tests of sitetxt_scrapy: the calls to serve, against a stand-in
serve on loopback that records what it is sent. Run from
integrations/scrapy with ``python3 -m unittest discover -s tests``
(the Go test TestPythonUnit does). The crawls against a real serve are
TestScrapyFleet's (scrapy_test.go)."""

import email.utils
import http.server
import json
import threading
import unittest

from scrapy.http import Request
from scrapy.utils.test import get_crawler

from sitetxt_scrapy import PaceMiddleware, RobotParser
from sitetxt_scrapy.client import (MAX_ROBOTS_BYTES, Serve, ServeError, product_token, report_body,
                                   retry_after_seconds, robots_text)


class StandIn:
    """A stand-in serve: answers each path with a (status, headers, body)
    from answers, and records every request's path, headers and body."""

    def __init__(self, answers):
        self.answers = answers
        self.calls = []
        standin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                n = int(self.headers.get("Content-Length", "0"))
                standin.calls.append((self.path, dict(self.headers), json.loads(self.rfile.read(n))))
                status, headers, body = standin.answers[self.path]
                data = json.dumps(body).encode()
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def refused_url():
    """The URL of a loopback port nothing listens on."""
    s = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    url = "http://127.0.0.1:%d" % s.server_address[1]
    s.server_close()
    return url


class ProductTokenTest(unittest.TestCase):
    def test_product_token(self):
        cases = [
            ("ExampleBot/1.0 (+https://example.org/bot)", "ExampleBot"),
            (b"ExampleBot/1.0", "ExampleBot"),
            ("  MJ12bot/v1.4.8", "MJ12bot"),
            ("360Spider", "360Spider"),
            ("Mozilla/5.0 (compatible; Googlebot/2.1)", "Mozilla"),
            ("*", ""),
            ("(compatible)", ""),
            ("", ""),
            (None, ""),
        ]
        for ua, want in cases:
            with self.subTest(ua=ua):
                self.assertEqual(product_token(ua), want, "product_token(%r)" % (ua,))


class RetryAfterTest(unittest.TestCase):
    def test_retry_after_seconds(self):
        now = 1_800_000_000.0
        cases = [
            ("3", 3.0),
            (b" 120 ", 120.0),
            (email.utils.formatdate(now + 3, usegmt=True), 3.0),
            (email.utils.formatdate(now - 60, usegmt=True), 0.0),
            ("soon", None),
            ("-1", None),
            (None, None),
        ]
        for value, want in cases:
            with self.subTest(value=value):
                self.assertEqual(retry_after_seconds(value, now=now), want, "retry_after_seconds(%r)" % (value,))


class BodiesTest(unittest.TestCase):
    def test_report_body_ticket_only_when_given(self):
        without = report_body("http://a/x", 200, None, "ExampleBot", None)
        self.assertEqual(without, {"url": "http://a/x", "status": 200, "retry_after": ""})
        with_ticket = report_body("http://a/x", 429, b"3", "ExampleBot", "t1")
        self.assertEqual(with_ticket, {"url": "http://a/x", "status": 429, "retry_after": "3",
                                       "agent": "ExampleBot", "ticket": "t1"})

    def test_robots_text(self):
        self.assertEqual(robots_text(b"User-agent: *\nDisallow: /\xff\n"), "User-agent: *\nDisallow: /\ufffd\n")
        self.assertEqual(len(robots_text(b"#" * (MAX_ROBOTS_BYTES + 10))), MAX_ROBOTS_BYTES)


class ServeTest(unittest.TestCase):
    def test_post_sends_json_and_token(self):
        s = StandIn({"/v1/acquire": (200, {}, {"allowed": True, "wait_ms": 5, "ticket": "t1"})})
        self.addCleanup(s.close)
        answer = Serve(s.url + "/", token="secret").acquire("http://a/x", "ExampleBot", "google")
        self.assertEqual(answer["ticket"], "t1")
        path, headers, body = s.calls[0]
        self.assertEqual(path, "/v1/acquire")
        self.assertEqual(headers["Content-Type"], "application/json")
        self.assertEqual(headers["Authorization"], "Bearer secret")
        self.assertEqual(body, {"url": "http://a/x", "agent": "ExampleBot", "profile": "google"})

    def test_error_answer(self):
        s = StandIn({"/v1/acquire": (429, {"Retry-After": "2"}, {"error": "the site is booked; later"})})
        self.addCleanup(s.close)
        with self.assertRaises(ServeError) as cm:
            Serve(s.url).acquire("http://a/x", "ExampleBot", "rfc9309")
        self.assertEqual((cm.exception.status, cm.exception.retry_after), (429, 2.0))
        self.assertIn("the site is booked", str(cm.exception))

    def test_unreachable(self):
        with self.assertRaises(ServeError) as cm:
            Serve(refused_url(), timeout=2).report("http://a/x", 200, None, "ExampleBot", None)
        self.assertEqual(cm.exception.status, 0)

    def test_no_url(self):
        with self.assertRaises(ValueError):
            Serve("")


def crawler(**settings):
    return get_crawler(settings_dict=settings)


class RobotParserTest(unittest.TestCase):
    def test_allowed_asks_test_with_the_body(self):
        verdict = {"allowed": False, "reason": "rule matched"}
        s = StandIn({"/v1/test": (200, {}, {"results": [{"verdicts": [verdict]}]})})
        self.addCleanup(s.close)
        c = crawler(SITETXT_URL=s.url, SITETXT_PROFILE="google")
        RobotParser.from_crawler(c, b"")  # Scrapy's check at start: no call
        self.assertEqual(s.calls, [])
        rp = RobotParser.from_crawler(c, b"User-agent: *\nDisallow: /private/\n")
        self.assertFalse(rp.allowed("http://a/private/x", b"ExampleBot/1.0 (+http://a/bot)"))
        verdict["allowed"] = True
        self.assertTrue(rp.allowed("http://a/x", "ExampleBot/1.0"))
        _, _, body = s.calls[0]
        self.assertEqual(body, {"robots": "User-agent: *\nDisallow: /private/\n", "agent": "ExampleBot",
                                "urls": ["http://a/private/x"], "profiles": ["google"]})

    def test_crawl_delay(self):
        verdict = {"allowed": True, "crawl_delay": 2.5}
        s = StandIn({"/v1/test": (200, {}, {"results": [{"verdicts": [verdict]}]})})
        self.addCleanup(s.close)
        rp = RobotParser.from_crawler(crawler(SITETXT_URL=s.url), b"User-agent: *\nCrawl-delay: 2.5\n")
        self.assertEqual(rp.crawl_delay("ExampleBot/1.0"), 2.5)
        del verdict["crawl_delay"]
        self.assertIsNone(rp.crawl_delay("ExampleBot/1.0"))
        self.assertEqual(s.calls[0][2]["urls"], ["/"])

    def test_serve_down_disallows(self):
        c = crawler(SITETXT_URL=refused_url(), SITETXT_TIMEOUT=2)
        rp = RobotParser.from_crawler(c, b"")
        with self.assertLogs("sitetxt_scrapy.robots", "ERROR"):
            self.assertFalse(rp.allowed("http://a/x", "ExampleBot"))

    def test_no_url(self):
        with self.assertRaises(ValueError):
            RobotParser.from_crawler(crawler(), b"")


class PaceMiddlewareTest(unittest.TestCase):
    def test_agent(self):
        cases = [
            ({"SITETXT_AGENT": "FooBot"}, "FooBot"),
            ({"ROBOTSTXT_USER_AGENT": "BarBot/2"}, "BarBot"),
            ({"USER_AGENT": "BazBot/3 (+http://a/)"}, "UaBot"),  # the request's header comes first
        ]
        for settings, want in cases:
            with self.subTest(settings=settings):
                mw = PaceMiddleware.from_crawler(crawler(SITETXT_URL="http://127.0.0.1:9", **settings))
                req = Request("http://a/x", headers={"User-Agent": "UaBot/1.0"})
                self.assertEqual(mw._agent(req), want)

    def test_bad_settings(self):
        with self.assertRaises(ValueError):
            PaceMiddleware.from_crawler(crawler())
        with self.assertRaises(ValueError):
            PaceMiddleware.from_crawler(crawler(SITETXT_URL="http://127.0.0.1:9", TWISTED_REACTOR_ENABLED=False))
        with self.assertRaises(ValueError):
            PaceMiddleware.from_crawler(crawler(SITETXT_URL="http://127.0.0.1:9", SITETXT_AGENT="*"))


if __name__ == "__main__":
    unittest.main()
