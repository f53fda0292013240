package audit

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
)

// maxWARCBlock is the largest record block ReadWARC reads into memory;
// larger records (never robots.txt captures) are skipped.
const maxWARCBlock = 16 << 20

// maxRobotsBody is how much of a captured robots.txt body is kept: all of
// any record ReadWARC reads (Google's profile reads a whole file).
const maxRobotsBody = maxWARCBlock

// ReadWARC reads a WARC file (ISO 28500, WARC 1.0 or 1.1; whole-file or
// per-record gzip) and calls fn with every "response" record, named by its
// WARC-Target-URI, with its HTTP status and, for a 2xx status, its body. A
// block that is not an HTTP response is passed with Err set. Other record
// types (warcinfo, request, metadata, ...) are skipped. Records are read
// one at a time, so memory stays bounded by the largest record.
func ReadWARC(r io.Reader, fn func(Input) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	if head, err := br.Peek(2); err == nil && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br) // multistream: one member per record is read through
		if err != nil {
			return err
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	tp := textproto.NewReader(br)
	for n := 1; ; n++ {
		// Skip the blank lines between records.
		var version string
		for {
			line, err := tp.ReadLine()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("record %d: %w", n, err)
			}
			if line != "" {
				version = line
				break
			}
		}
		if !strings.HasPrefix(version, "WARC/") {
			return fmt.Errorf("record %d: %q is not a WARC version line", n, version)
		}
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			return fmt.Errorf("record %d: header: %w", n, err)
		}
		size, err := strconv.ParseInt(h.Get("Content-Length"), 10, 64)
		if err != nil || size < 0 {
			return fmt.Errorf("record %d: bad Content-Length %q", n, h.Get("Content-Length"))
		}
		// WARC 1.0 as wget writes it puts the URI in angle brackets
		// (the grammar of ISO 28500:2009); 1.1 and Common Crawl do not.
		typ, uri := h.Get("WARC-Type"), strings.TrimSuffix(strings.TrimPrefix(h.Get("WARC-Target-URI"), "<"), ">")
		if typ != "response" || size > maxWARCBlock {
			if _, err := io.CopyN(io.Discard, br, size); err != nil {
				return fmt.Errorf("record %d: block: %w", n, err)
			}
			continue
		}
		block := make([]byte, size)
		if _, err := io.ReadFull(br, block); err != nil {
			return fmt.Errorf("record %d: block: %w", n, err)
		}
		in := Input{Name: uri}
		in.Data, in.Status, in.Err = httpBody(block)
		if err := fn(in); err != nil {
			return err
		}
	}
}

// httpBody returns the body of an HTTP response message, as a crawler
// would read it: de-chunked, gzip/deflate decoded, at most maxRobotsBody
// bytes, with the status. The body of a response that is not 2xx is not
// read.
func httpBody(block []byte) ([]byte, int, error) {
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(block)), nil)
	if err != nil {
		return nil, 0, fmt.Errorf("not an HTTP response: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, resp.StatusCode, nil
	}
	var body io.Reader = resp.Body
	if strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, resp.StatusCode, err
		}
		body = zr
	}
	b, err := io.ReadAll(io.LimitReader(body, maxRobotsBody))
	return b, resp.StatusCode, err
}

// WriteWARC writes records in WARC 1.1 form, uncompressed: a warcinfo
// record, then one "response" record per capture. It builds test data and
// small WARC files for tools.
func WriteWARC(w io.Writer, captures []Capture) error {
	write := func(typ, uri, ctype string, block []byte, id int) error {
		var b strings.Builder
		b.WriteString("WARC/1.1\r\n")
		fmt.Fprintf(&b, "WARC-Type: %s\r\n", typ)
		fmt.Fprintf(&b, "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n", id)
		b.WriteString("WARC-Date: 2026-01-01T00:00:00Z\r\n")
		if uri != "" {
			fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", uri)
		}
		fmt.Fprintf(&b, "Content-Type: %s\r\n", ctype)
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(block))
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
		if _, err := w.Write(block); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\r\n\r\n")
		return err
	}
	if err := write("warcinfo", "", "application/warc-fields", []byte("software: sitetxt\r\nformat: WARC File Format 1.1\r\n"), 0); err != nil {
		return err
	}
	for i, c := range captures {
		status := c.Status
		if status == 0 {
			status = 200
		}
		msg := fmt.Sprintf("HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s",
			status, http.StatusText(status), len(c.Body), c.Body)
		if err := write("response", c.URL, "application/http; msgtype=response", []byte(msg), i+1); err != nil {
			return err
		}
	}
	return nil
}

// Capture is one fetched file for WriteWARC.
type Capture struct {
	URL    string
	Status int // 0 means 200
	Body   string
}
