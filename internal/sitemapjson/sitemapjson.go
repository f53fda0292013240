// Package sitemapjson is the JSON shape of one URL a sitemap lists, which
// "sitetxt sitemaps -o json" and serve's POST /v1/sitemaps share
// (docs/cli.md): the URL, its lastmod (normalised), changefreq and
// priority (null when absent or invalid), the sitemap file that listed it,
// and the extensions it carries. Each output adds a robots.txt decision
// beside it when it has an agent: it embeds URL, and a struct that embeds
// the decision object, so the decision's fields lie one level deeper and
// URL's "url" is the one that shows (encoding/json drops two fields of one
// name at the same depth).
package sitemapjson

import (
	"strconv"

	"github.com/sitetxt/sitetxt/sitemap"
)

// URL is one URL found in a sitemap.
type URL struct {
	URL        string      `json:"url"`
	LastMod    *string     `json:"lastmod"`
	ChangeFreq *string     `json:"changefreq"`
	Priority   *float64    `json:"priority"`
	Sitemap    string      `json:"sitemap"`
	Images     []Image     `json:"images,omitempty"`
	Videos     []Video     `json:"videos,omitempty"`
	News       *News       `json:"news,omitempty"`
	Alternates []Alternate `json:"alternates,omitempty"`
}

// Image is an image:image.
type Image struct {
	Loc         string `json:"loc"`
	Caption     string `json:"caption,omitempty"`
	Title       string `json:"title,omitempty"`
	GeoLocation string `json:"geo_location,omitempty"`
	License     string `json:"license,omitempty"`
}

// Video is a video:video.
type Video struct {
	ThumbnailLoc    string `json:"thumbnail_loc,omitempty"`
	Title           string `json:"title,omitempty"`
	Description     string `json:"description,omitempty"`
	ContentLoc      string `json:"content_loc,omitempty"`
	PlayerLoc       string `json:"player_loc,omitempty"`
	Duration        string `json:"duration,omitempty"`
	PublicationDate string `json:"publication_date,omitempty"`
	ExpirationDate  string `json:"expiration_date,omitempty"`
	FamilyFriendly  string `json:"family_friendly,omitempty"`
}

// News is a news:news.
type News struct {
	Name            string `json:"name,omitempty"`
	Language        string `json:"language,omitempty"`
	PublicationDate string `json:"publication_date,omitempty"`
	Title           string `json:"title,omitempty"`
	Keywords        string `json:"keywords,omitempty"`
}

// Alternate is an xhtml:link hreflang alternate.
type Alternate struct {
	Hreflang string `json:"hreflang"`
	Href     string `json:"href"`
}

// Of returns the JSON shape of a URL a discovery found.
func Of(f *sitemap.Found) URL {
	e := f.Entry
	v := URL{URL: e.URL, Sitemap: f.Sitemap}
	if !e.LastMod.IsZero() {
		s := e.LastMod.String()
		v.LastMod = &s
	}
	if e.ChangeFreq != "" {
		s := string(e.ChangeFreq)
		v.ChangeFreq = &s
	}
	if e.HasPriority {
		p := e.Priority
		v.Priority = &p
	}
	for _, im := range e.Images {
		v.Images = append(v.Images, Image(im))
	}
	for _, vi := range e.Videos {
		v.Videos = append(v.Videos, Video(vi))
	}
	if n := e.News; n != nil {
		v.News = &News{Name: n.Name, Language: n.Language, PublicationDate: n.PublicationDate, Title: n.Title, Keywords: n.Keywords}
	}
	for _, a := range e.Alternates {
		v.Alternates = append(v.Alternates, Alternate(a))
	}
	return v
}

// Row returns the URL's columns as CSV and text show them: url, lastmod,
// changefreq, priority ("" when absent), sitemap.
func (v URL) Row() []string {
	row := []string{v.URL, "", "", "", v.Sitemap}
	if v.LastMod != nil {
		row[1] = *v.LastMod
	}
	if v.ChangeFreq != nil {
		row[2] = *v.ChangeFreq
	}
	if v.Priority != nil {
		row[3] = strconv.FormatFloat(*v.Priority, 'f', -1, 64)
	}
	return row
}

// Header is the CSV header of Row.
var Header = []string{"url", "lastmod", "changefreq", "priority", "sitemap"}
