package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// httpClient is the client every download uses; tests replace it.
var httpClient = &http.Client{Timeout: 30 * time.Minute}

// fetchAttempts is how often a download is tried before it fails: a
// dropped connection is retried, a 404 is not; retryDelay grows the wait
// between attempts.
var (
	fetchAttempts = 3
	retryDelay    = 2 * time.Second
)

// fetch downloads url into the file dst and returns the sha256 of what it
// wrote, as lower-case hex. When want is not empty, a download whose sha256
// differs is deleted and reported as an error naming both sums.
func fetch(url, dst, want string) (sum string, err error) {
	for attempt := 1; ; attempt++ {
		var retry bool
		sum, retry, err = fetchOnce(url, dst)
		if err == nil || !retry || attempt == fetchAttempts {
			break
		}
		time.Sleep(time.Duration(attempt) * retryDelay)
	}
	if err != nil {
		_ = os.Remove(dst)
		return "", err
	}
	if want != "" && sum != want {
		_ = os.Remove(dst)
		return sum, fmt.Errorf("%s: sha256 %s, want %s: the file is not the one pinned; nothing was installed", url, sum, want)
	}
	return sum, nil
}

// fetchOnce makes one attempt; retry reports whether another may succeed.
func fetchOnce(url, dst string) (sum string, retry bool, err error) {
	resp, err := httpClient.Get(url)
	if err != nil {
		return "", true, fmt.Errorf("downloading %s: %v", url, err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		retry = resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests
		return "", retry, fmt.Errorf("downloading %s: HTTP %s", url, resp.Status)
	}
	f, err := os.Create(dst)
	if err != nil {
		return "", false, err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(f, h), resp.Body); err != nil {
		_ = f.Close()
		return "", true, fmt.Errorf("downloading %s: %v", url, err)
	}
	if err := f.Close(); err != nil {
		return "", false, err
	}
	return hex.EncodeToString(h.Sum(nil)), false, nil
}
