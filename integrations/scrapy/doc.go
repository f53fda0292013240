// Package sitetxtscrapy holds the Go tests of the Scrapy integration: the
// Python package sitetxt_scrapy beside this file (README.md), run by real
// Scrapy processes (Debian's python3-scrapy, /usr/bin/python3) against a
// real "sitetxt serve", redis-server and a loopback site. The package has
// no Go code of its own; it is here so that the main module's go test
// ./... runs the integration's tests.
//
// TestPythonUnit runs the package's Python unit tests (tests/) in the
// default tier; TestScrapyFleet, in the slow tier, has two Scrapy
// processes crawl one site behind one serve and Redis and checks what the
// site saw (internal/crawltest).
package sitetxtscrapy
