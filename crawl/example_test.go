package crawl_test

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
)

// Grade judges a crawler's requests against the robots.txt in force: here
// a crawler that fetched a page before robots.txt, then one the file
// disallows.
func ExampleGrade() {
	start := time.Date(2026, 10, 6, 0, 0, 0, 0, time.UTC)
	versions := []crawl.Version{{Origin: "http://a.test", Status: 200, Body: []byte("User-agent: *\nDisallow: /private/\n"), Label: "robots.txt"}}
	log := []crawl.Request{
		{Time: start, Method: "GET", URL: "http://a.test/", UserAgent: "FooBot/1.0", Status: 200},
		{Time: start.Add(time.Second), Method: "GET", URL: "http://a.test/robots.txt", UserAgent: "FooBot/1.0", Status: 200},
		{Time: start.Add(2 * time.Second), Method: "GET", URL: "http://a.test/private/x", UserAgent: "FooBot/1.0", Status: 200},
	}
	for _, j := range crawl.Grade(log, versions, crawl.Options{Reference: reference.RFC()}) {
		fmt.Println(j.Request.URL, j.Tier, "before robots.txt:", j.Before, "requirement:", orNone(j.Req))
	}
	// Output:
	// http://a.test/ allowed before robots.txt: true requirement: none
	// http://a.test/robots.txt robots before robots.txt: false requirement: none
	// http://a.test/private/x violation before robots.txt: false requirement: ACC-2
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// A lab serves a crawl's scenario sites; its test CA is the {ca} of a
// crawler template. Without low ports (or with LayoutPorts forced, as
// here) each origin is a port of 127.0.0.1.
func ExampleNewLab() {
	lab, err := crawl.NewLab(crawl.LabOptions{Layout: crawl.LayoutPorts})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer lab.Close()
	fmt.Println(lab.Layout(), filepath.Base(lab.CAFile()))
	// Output: ports ca.pem
}
