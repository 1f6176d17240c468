package openai

import "testing"

// TestPartsOfOneMessageAreOneText: a message's output_text parts are one
// text split up, joined as they are; only separate messages are set apart.
// Replays vercel/ai's openai-multiple-output-text-parts.1.json.
func TestPartsOfOneMessageAreOneText(t *testing.T) {
	r, err := Decode(readContract(t, "multiple-output-text-parts.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := Parse(r).Render(0).Answer; got != "First. Second." {
		t.Errorf("answer %q, want %q", got, "First. Second.")
	}
}
