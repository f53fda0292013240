package jsonpos_test

import (
	"fmt"

	"github.com/sitetxt/sitetxt/jsonpos"
)

func ExampleParse() {
	doc := []byte(`{"name": "Bird counts", "files": ["a.csv", "b.csv"], "name": "again"}`)
	v, err := jsonpos.Parse(doc, jsonpos.Options{
		Repeated: func(m *jsonpos.Value) { fmt.Printf("%q again at byte %d\n", m.Name, m.NameOffset) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.First("name").Scalar(), "/", v.Last("name").Scalar())
	for _, f := range v.First("files").List() {
		fmt.Printf("%s at byte %d\n", f.Text, f.Offset)
	}
	// Output:
	// "name" again at byte 53
	// Bird counts / again
	// a.csv at byte 34
	// b.csv at byte 43
}

func ExampleParse_broken() {
	// A document cut off inside its second item keeps the first.
	v, err := jsonpos.Parse([]byte(`[{"title": "A"}, {"title": "B`), jsonpos.Options{})
	fmt.Println(err)
	for _, item := range v.Items {
		fmt.Println(item.First("title").Scalar(), item.Done)
	}
	// Output:
	// byte 29: the document ends inside a JSON value
	// A true
	//  false
}
