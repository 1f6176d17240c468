package httpguard

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestWriteDeadlineCutsSlowReaders: a client that stops reading loses the
// connection once a write waits longer than the write timeout, while a
// stream that is read keeps going past it.
func TestWriteDeadlineCutsSlowReaders(t *testing.T) {
	cases := []struct {
		name    string
		read    bool
		wantErr bool
	}{
		{"reader gone quiet", false, true},
		{"reader keeps reading", true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			werr := make(chan error, 1)
			chunk := []byte(strings.Repeat("x", 512<<10))
			ts := httptest.NewServer(WriteDeadline(300*time.Millisecond, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var err error
				// 40 writes over 1.2 s (longer than the timeout), 20 MB in all:
				// more than loopback socket buffers hold.
				for i := 0; i < 40 && err == nil; i++ {
					_, err = w.Write(chunk)
					w.(http.Flusher).Flush()
					time.Sleep(30 * time.Millisecond)
				}
				werr <- err
			})))
			defer ts.Close()
			c, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if !tc.read {
				_ = c.(*net.TCPConn).SetReadBuffer(4096)
			}
			if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
				t.Fatal(err)
			}
			if tc.read {
				go func() {
					buf := make([]byte, 1<<16)
					for {
						if _, err := c.Read(buf); err != nil {
							return
						}
					}
				}()
			}
			select {
			case err := <-werr:
				if (err != nil) != tc.wantErr {
					t.Fatalf("handler write error %v, want error %v", err, tc.wantErr)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the handler was still blocked on a client that does not read")
			}
		})
	}
}
