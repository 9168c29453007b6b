// windlass-gotemplate renders the string fields of an Argo CD ApplicationSet template with goTemplate: true, as Argo CD's
// ApplicationSet controller does: Go's text/template with the Masterminds sprig v3 generic function map, less env,
// expandenv and getHostByName (nothing of the environment or the network reaches a template), plus normalize, slugify,
// toYaml, fromYaml and fromYamlArray; each goTemplateOptions entry applied with Template.Option.
//
// Input, on stdin, as JSON:
//
//	{"options": ["missingkey=error"], "params": [{...}, ...], "templates": ["...", ...], "maxBytes": 1048576}
//
// Output, on stdout, as JSON: one list per parameter set, one string per template, or the first that fails:
//
//	{"rendered": [["...", ...], ...]}
//	{"failed": {"set": 0, "template": 2, "error": "..."}}
//
// Exit status 0 for both; 2 when the input cannot be read.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"syscall"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"github.com/gosimple/slug"
	"sigs.k8s.io/yaml"
)

type input struct {
	Options   []string         `json:"options"`
	Params    []map[string]any `json:"params"`
	Templates []string         `json:"templates"`
	MaxBytes  int              `json:"maxBytes"`
}

type failure struct {
	Set      int    `json:"set"`
	Template int    `json:"template"`
	Error    string `json:"error"`
}

type output struct {
	Rendered [][]string `json:"rendered,omitempty"`
	Failed   *failure   `json:"failed,omitempty"`
}

// The most memory the process may write to (RLIMIT_DATA): a template that builds a huge list fails here, not the host.
const maxData = 1 << 30

func functions() template.FuncMap {
	f := sprig.GenericFuncMap()
	delete(f, "env")
	delete(f, "expandenv")
	delete(f, "getHostByName")
	f["normalize"] = sanitizeName
	f["slugify"] = slugifyName
	f["toYaml"] = toYAML
	f["fromYaml"] = fromYAML
	f["fromYamlArray"] = fromYAMLArray
	return template.FuncMap(f)
}

var notDNS = regexp.MustCompile("[^-a-z0-9.]")

// sanitizeName is Argo CD's normalize: lower case, every other character than a-z, 0-9, '-' and '.' made '-', at most
// 253 characters, no '-' or '.' at either end.
func sanitizeName(name string) string {
	name = notDNS.ReplaceAllString(strings.ToLower(name), "-")
	if len(name) > 253 {
		name = name[:253]
	}
	return strings.Trim(name, "-.")
}

// slugifyName is Argo CD's slugify: [maxSize (50)] [smartTruncate (true)] name, the name normalized, then made a slug.
func slugifyName(args ...any) (string, error) {
	maxSize, smart, name := 50, true, ""
	for i, arg := range args {
		var ok bool
		switch i {
		case len(args) - 1:
			name, ok = arg.(string)
		case 0:
			maxSize, ok = arg.(int)
		case 1:
			smart, ok = arg.(bool)
		}
		if !ok {
			return "", errors.New("slugify takes [maxSize int] [smartTruncate bool] name string")
		}
	}
	slug.EnableSmartTruncate = smart
	slug.MaxLength = maxSize
	return slug.Make(sanitizeName(name)), nil
}

func toYAML(v any) (string, error) {
	data, err := yaml.Marshal(v)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(data), "\n"), nil
}

func fromYAML(s string) (map[string]any, error) {
	m := map[string]any{}
	err := yaml.Unmarshal([]byte(s), &m)
	return m, err
}

func fromYAMLArray(s string) ([]any, error) {
	var a []any
	err := yaml.Unmarshal([]byte(s), &a)
	return a, err
}

// capped keeps at most max bytes; past that, the template's execution fails.
type capped struct {
	buf bytes.Buffer
	max int
}

var errTooLong = errors.New("the rendered text is longer than the limit")

func (c *capped) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		return 0, errTooLong
	}
	return c.buf.Write(p)
}

// render executes one template with one set; a panic of text/template (an unknown option) is an error too.
func render(text string, options []string, params map[string]any, funcs template.FuncMap, max int) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	t, err := template.New("").Funcs(funcs).Parse(text)
	if err != nil {
		return "", fmt.Errorf("failed to parse template %s: %w", text, err)
	}
	for _, o := range options {
		t = t.Option(o)
	}
	w := &capped{max: max}
	if err := t.Execute(w, params); err != nil {
		if errors.Is(err, errTooLong) {
			return "", fmt.Errorf("failed to execute go template %s: it renders more than %d bytes", text, max)
		}
		return "", fmt.Errorf("failed to execute go template %s: %w", text, err)
	}
	return w.buf.String(), nil
}

func main() {
	_ = syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: maxData, Max: maxData})
	data, err := io.ReadAll(io.LimitReader(os.Stdin, 64<<20))
	var in input
	if err == nil {
		err = json.Unmarshal(data, &in)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "windlass-gotemplate: cannot read the input: %v\n", err)
		os.Exit(2)
	}
	if in.MaxBytes <= 0 {
		in.MaxBytes = 1 << 20
	}
	funcs := functions()
	out := output{Rendered: make([][]string, 0, len(in.Params))}
	for s, params := range in.Params {
		texts := make([]string, 0, len(in.Templates))
		for i, text := range in.Templates {
			r, err := render(text, in.Options, params, funcs, in.MaxBytes)
			if err != nil {
				out = output{Failed: &failure{Set: s, Template: i, Error: err.Error()}}
				break
			}
			texts = append(texts, r)
		}
		if out.Failed != nil {
			break
		}
		out.Rendered = append(out.Rendered, texts)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintf(os.Stderr, "windlass-gotemplate: cannot write the output: %v\n", err)
		os.Exit(2)
	}
}
