// Package cache defines where sitetxt keeps fetched manifests between
// fetches, so that library users can put them in their own store.
//
// A crawler asks for a site's /robots.txt (or /data.txt) once per expiry:
// RFC 9309 section 2.4 lets it cache the response for up to 24 hours, the
// drafts for as long as Cache-Control says (7 days by default). What is
// cached is the fetch outcome, independent of any standard: the body, the
// status code, the validators (ETag, Last-Modified) used to revalidate it,
// where redirects led, and when it was fetched. robots.Client,
// datatxt.Fetcher and mobileagent.Fetcher each take a Cache; their default
// is one in memory (NewMemory), and NewDir gives one in a directory.
//
// A Cache only stores bytes. A Shared cache is one that many processes use
// at once (Redis, in package rediscache): besides bytes with a time to
// live, it holds a lease per manifest, so that when a manifest expires the
// first process to ask fetches it and every other process, on every
// machine, waits for that result instead of fetching it too. A site then
// sees one request per expiry from the whole fleet. A shared cache also
// keeps failures (a 5xx, a timeout), so that no process asks a failing
// site again before its Retry-After.
package cache

import (
	"context"
	"time"
)

// Cache stores fetched responses by key (the manifest's URL). The values
// are opaque bytes that sitetxt encodes and checks; a value that does not
// decode (truncated, corrupt, from another version) is ignored and the
// manifest fetched again, so a Cache never validates anything.
// Implementations must be safe for concurrent use. Put may drop a value (a
// full store, a failed write): a cache is an optimisation, never a source
// of errors.
//
// Because its methods use only built-in types, a crawler can implement
// Cache on its own store (a database, a sharded map) without importing
// this package.
type Cache interface {
	Get(key string) (value []byte, ok bool)
	Put(key string, value []byte)
}

// Shared is a Cache that several processes share. sitetxt uses its extra
// methods to make one fetch per manifest per expiry across all of them:
//
//  1. A process that finds no fresh value calls TryLease. If it gets the
//     lease it fetches, stores the outcome with PutTTL and calls Release.
//  2. A process that does not get the lease calls WaitLease, then reads
//     the value the holder stored.
//  3. While it fetches, the holder calls Extend every third of the ttl, so
//     the ttl can be short. A holder that crashes neither extends nor
//     releases: its lease ends after its ttl, and the next caller of
//     TryLease gets it.
//
// Any error from a Shared cache (the store is down, slow, full) makes
// sitetxt fall back to fetching directly: a shared cache that is down
// costs requests, never answers. Get and Put should therefore bound their
// own time and report a failure as a miss.
type Shared interface {
	Cache
	// PutTTL stores value under key for at most ttl; a ttl <= 0 removes
	// key.
	PutTTL(key string, value []byte, ttl time.Duration)
	// TryLease takes the lease on key for ttl, unless someone else holds
	// it. held reports whether the caller now holds it; token identifies
	// the holding for Release. err is set when the store cannot be asked.
	TryLease(ctx context.Context, key string, ttl time.Duration) (token string, held bool, err error)
	// Extend makes the lease on key last ttl from now if token still holds
	// it, and reports whether it does.
	Extend(ctx context.Context, key, token string, ttl time.Duration) (bool, error)
	// Release ends the lease on key if token still holds it.
	Release(key, token string)
	// WaitLease returns when nobody holds the lease on key (released or
	// expired), when ctx is done (ctx.Err()), or when the store cannot be
	// asked.
	WaitLease(ctx context.Context, key string) error
}
