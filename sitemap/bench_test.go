package sitemap

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// BenchmarkReader reads a 50,000-URL sitemap (every URL with lastmod,
// changefreq and priority: 8.5 MB) as XML, gzip-compressed XML and a text
// sitemap of the same URLs, and reports URLs per second and the peak live
// heap while reading (sampled, with the collector at 5%). SetBytes is the
// uncompressed size.
func BenchmarkReader(b *testing.B) {
	xmlDoc := manyURLs(50000)
	var text bytes.Buffer
	for i := range 50000 {
		fmt.Fprintf(&text, "https://www.example.org/products/item-%d.html\n", i)
	}
	for _, c := range []struct {
		name string
		data []byte
		size int
	}{
		{"xml", xmlDoc, len(xmlDoc)},
		{"gzip", gzipped(b, xmlDoc), len(xmlDoc)},
		{"text", text.Bytes(), text.Len()},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(c.size))
			b.ReportAllocs()
			n := 0
			start := time.Now()
			for b.Loop() {
				for _, err := range NewReader(bytes.NewReader(c.data), Options{URL: "https://www.example.org/sitemap.xml"}).Entries() {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "URLs/s")
			_, heap := measure(func() {
				for range NewReader(bytes.NewReader(c.data), Options{URL: "https://www.example.org/sitemap.xml"}).Entries() {
				}
			})
			b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MiB")
		})
	}
}
