package fake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Streaming: a request with "stream": true is answered as server-sent
// events, in the order and shapes of the recorded real streams (source:
// vercel/ai packages/openai/src/responses/__fixtures__/
// openai-web-search-tool.1.chunks.txt, gpt-5-mini, December 2025, kept in
// openai/testdata/contract; the Responses streaming reference,
// platform.openai.com/docs/api-reference/responses-streaming):
// response.created, response.in_progress, then per output item
// response.output_item.added … response.output_item.done (a web_search_call
// with response.web_search_call.in_progress / .searching / .completed
// between, the action only on the done item; a message with
// response.content_part.added, response.output_text.delta chunks,
// response.output_text.annotation.added once its span is written,
// response.output_text.done, response.content_part.done), and last
// response.completed, response.incomplete or response.failed with the
// whole response. Each SSE frame is "event: <type>" and "data: <json>".

// sse writes events spread over pace in total (0: at once).
type sse struct {
	w     http.ResponseWriter
	seq   int
	delay time.Duration
	done  <-chan struct{}
	// stall: after the first event of this type, hold until the client goes.
	stall string
}

func (s *sse) send(typ string, fields map[string]any) bool {
	fields["type"] = typ
	fields["sequence_number"] = s.seq
	s.seq++
	b, _ := json.Marshal(fields)
	if s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-s.done:
			return false
		}
	}
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", typ, b); err != nil {
		return false
	}
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
	if s.stall != "" && typ == s.stall {
		<-s.done
		return false
	}
	return true
}

// eventCount is how many events streamResponse sends for r (to spread a
// pace over them).
func eventCount(r map[string]any) int {
	n := 3
	out, _ := r["output"].([]any)
	for _, it := range out {
		m, _ := it.(map[string]any)
		n += 2
		switch m["type"] {
		case "web_search_call":
			n += 3
		case "message":
			parts, _ := m["content"].([]any)
			for _, p := range parts {
				pm, _ := p.(map[string]any)
				anns, _ := pm["annotations"].([]any)
				n += 3 + len(chunks(str(pm["text"]))) + len(anns)
			}
		}
	}
	return n
}

// streamResponse writes r as a stream; cut > 0 stops after that many
// events without the final one (a dropped connection), broken writes a cut
// JSON event instead of the final one, and stall holds the stream open
// after the first event of that type.
func streamResponse(w http.ResponseWriter, r map[string]any, pace time.Duration, done <-chan struct{}, cut int, broken bool, stall string) {
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	s := &sse{w: w, done: done, stall: stall}
	if n := eventCount(r); pace > 0 && n > 0 {
		s.delay = pace / time.Duration(n)
	}
	start := map[string]any{}
	for k, v := range r {
		start[k] = v
	}
	start["status"], start["output"], start["usage"], start["incomplete_details"], start["error"] = "in_progress", []any{}, nil, nil, nil
	delete(start, "tool_usage")
	ok := s.send("response.created", map[string]any{"response": start}) && s.send("response.in_progress", map[string]any{"response": start})
	out, _ := r["output"].([]any)
	for i, it := range out {
		if !ok || (cut > 0 && s.seq >= cut) {
			return
		}
		m, _ := it.(map[string]any)
		switch m["type"] {
		case "web_search_call":
			added := map[string]any{"id": m["id"], "type": "web_search_call", "status": "in_progress"}
			ok = s.send("response.output_item.added", map[string]any{"output_index": i, "item": added}) &&
				s.send("response.web_search_call.in_progress", map[string]any{"output_index": i, "item_id": m["id"]}) &&
				s.send("response.web_search_call.searching", map[string]any{"output_index": i, "item_id": m["id"]}) &&
				s.send("response.web_search_call.completed", map[string]any{"output_index": i, "item_id": m["id"]}) &&
				s.send("response.output_item.done", map[string]any{"output_index": i, "item": m})
		case "message":
			added := map[string]any{"id": m["id"], "type": "message", "status": "in_progress", "content": []any{}, "role": "assistant"}
			if p, has := m["phase"]; has {
				added["phase"] = p
			}
			ok = s.send("response.output_item.added", map[string]any{"output_index": i, "item": added})
			parts, _ := m["content"].([]any)
			for ci, p := range parts {
				ok = ok && streamPart(s, i, ci, str(m["id"]), p.(map[string]any), cut)
			}
			ok = ok && s.send("response.output_item.done", map[string]any{"output_index": i, "item": m})
		default:
			ok = s.send("response.output_item.added", map[string]any{"output_index": i, "item": m}) &&
				s.send("response.output_item.done", map[string]any{"output_index": i, "item": m})
		}
	}
	if !ok || cut > 0 {
		return
	}
	if broken {
		_, _ = fmt.Fprintf(w, "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_fake\",\"status\":\"compl\n\n")
		return
	}
	final := "response." + str(r["status"])
	s.send(final, map[string]any{"response": r})
}

func streamPart(s *sse, item, ci int, id string, p map[string]any, cut int) bool {
	text := str(p["text"])
	anns, _ := p["annotations"].([]any)
	empty := map[string]any{"type": "output_text", "annotations": []any{}, "logprobs": []any{}, "text": ""}
	if !s.send("response.content_part.added", map[string]any{"item_id": id, "output_index": item, "content_index": ci, "part": empty}) {
		return false
	}
	written, next := 0, 0 // code points written, next annotation
	for _, c := range chunks(text) {
		if cut > 0 && s.seq >= cut {
			return false
		}
		if !s.send("response.output_text.delta", map[string]any{"item_id": id, "output_index": item, "content_index": ci, "delta": c, "logprobs": []any{}}) {
			return false
		}
		written += utf8.RuneCountInString(c)
		for next < len(anns) {
			a, _ := anns[next].(map[string]any)
			if end, _ := a["end_index"].(int); end > written {
				break
			}
			if !s.send("response.output_text.annotation.added", map[string]any{"item_id": id, "output_index": item, "content_index": ci, "annotation_index": next, "annotation": a}) {
				return false
			}
			next++
		}
	}
	for ; next < len(anns); next++ {
		s.send("response.output_text.annotation.added", map[string]any{"item_id": id, "output_index": item, "content_index": ci, "annotation_index": next, "annotation": anns[next]})
	}
	return s.send("response.output_text.done", map[string]any{"item_id": id, "output_index": item, "content_index": ci, "text": text, "logprobs": []any{}}) &&
		s.send("response.content_part.done", map[string]any{"item_id": id, "output_index": item, "content_index": ci, "part": p})
}

// chunks splits text into deltas of about 12 words, as the recorded
// stream's deltas run (a few words to a sentence each).
func chunks(text string) []string {
	var out []string
	words := strings.SplitAfter(text, " ")
	for i := 0; i < len(words); i += 12 {
		out = append(out, strings.Join(words[i:min(i+12, len(words))], ""))
	}
	return out
}
