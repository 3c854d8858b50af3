package mailbox

import "sync"

// memStore is a Store in memory for the package's tests: what one run adds
// the next run gets (internal/cache keeps the real one on disk).
type memStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func newMemStore() *memStore { return &memStore{m: map[string][]byte{}} }

func (s *memStore) Get(key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[key]
	return b, ok
}

func (s *memStore) Keep(string) {}

func (s *memStore) Add(key string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = data
}

func (s *memStore) Close() {}
