package serve

import (
	"context"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/discover"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/robots"
)

// DiscoverMaxPages bounds the pages one POST /v1/datasets with "discover"
// reads (a request may ask for fewer): at the pace a site asks (1 s when
// it asks for none) they fit in Config.RequestTimeout.
const DiscoverMaxPages = 20

// discoverDatasets answers a datasets request with "discover": the
// site's datasets through every source asked for (discover.Site), fetched
// through the guarded client behind its robots.txt and paced by the
// service's Pacer (the fleet's, with Redis), as "datasets --discover".
func (s *Server) discoverDatasets(ctx context.Context, req *datasetsRequest, agent string, prof robots.Profile) (*datatxt.Catalog, *datasetsResponse, *apiError) {
	if req.DataTxt != nil || req.Base != "" {
		return nil, nil, badRequest(`"discover" reads a "site": no "datatxt" or "base"`)
	}
	kinds, err := discover.ParseKinds(req.Discover)
	if err != nil {
		return nil, nil, badRequest(`"discover": %v`, err)
	}
	site, err := input.Site(req.Site)
	if err != nil {
		return nil, nil, badRequest(`"site": %v`, err)
	}
	pages := req.MaxPages
	if pages <= 0 || pages > DiscoverMaxPages {
		pages = DiscoverMaxPages
	}
	res, err := discover.Site(fetch.WithLimit(ctx, s.flights), site, discover.Options{Kinds: kinds, Fetcher: s.siteFetch, Robots: s.clients[prof],
		Profile: prof, Agent: agent, MaxPages: pages, Pacer: s.pacer, Pace: s.cfg.Pace, ErrorText: s.publicFetchError,
		DataTxt: datatxt.Options{Rules: datatxt.CompileRules(robots.Compile, prof)}})
	if err != nil {
		return nil, nil, badRequest(`"site": %v`, err)
	}
	resp := &datasetsResponse{File: res.Site, Documents: res.Documents, Stopped: res.Stopped}
	resp.datasetsOf(res.Catalog)
	return res.Catalog, resp, nil
}
