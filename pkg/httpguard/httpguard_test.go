package httpguard

import (
	"fmt"
	"io"
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

// TestRefusalReachesLateWriter: a client told 503 (the body budget is full)
// or 408 (its body was late) may still be writing its body after net/http's
// own 500 ms wait before closing (a client on a busy machine). Closing with
// its bytes unread resets the connection: the write fails, and Go's client
// then reports the write error instead of the answer it has not read yet.
func TestRefusalReachesLateWriter(t *testing.T) {
	const size = 256 << 10
	cases := []struct {
		name       string
		budgetFull bool
		want       string
	}{
		{"budget full", true, "HTTP/1.1 503 "},
		{"body late", false, "HTTP/1.1 408 "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			refuse := func(w http.ResponseWriter, status int, msg string) {
				w.Header().Set("Connection", "close")
				http.Error(w, msg, status)
			}
			holding := make(chan struct{}, 1)
			next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				holding <- struct{}{}
				<-release
			})
			ts := httptest.NewServer(BodyDeadline(300*time.Millisecond, Body(size, size, 300*time.Millisecond, refuse, next)))
			defer ts.Close()
			defer close(release) // before Close, which waits for the held handler
			addr := strings.TrimPrefix(ts.URL, "http://")
			head := fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", size)
			body := strings.Repeat("x", size)
			send := func(data string) net.Conn {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { c.Close() })
				if _, err := io.WriteString(c, data); err != nil {
					t.Fatal(err)
				}
				return c
			}

			if tc.budgetFull {
				send(head + body)
				<-holding // the whole budget is held
			}
			c := send(head + body[:size/2])
			time.Sleep(300*time.Millisecond + 700*time.Millisecond) // refused at 300 ms
			for i := 0; i < 4; i++ {                                // a reset fails a write after the first
				if _, err := io.WriteString(c, body[:size/8]); err != nil {
					t.Fatalf("writing the rest of the refused body: %v", err)
				}
				time.Sleep(50 * time.Millisecond)
			}
			_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
			got, err := io.ReadAll(c)
			if !strings.HasPrefix(string(got), tc.want) {
				t.Fatalf("answer %q (read error %v), want %q", got, err, tc.want)
			}
			if tc.budgetFull && !strings.Contains(string(got), "Retry-After: 1") {
				t.Errorf("503 without Retry-After: %q", got)
			}
		})
	}
}
