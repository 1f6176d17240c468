//go:build tools

package pkg

import (
	_ "github.com/coder/websocket"
	_ "github.com/go-resty/resty/v2"
	_ "github.com/mark3labs/mcp-go/server"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/rs/zerolog"
)
