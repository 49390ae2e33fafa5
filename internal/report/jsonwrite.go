package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// WriteJSON writes the report as indented JSON, field by field in the Report's order,
// each as encoding/json writes it; the items are rendered from the report's stream as
// they are written, so the whole report is never in memory. A report built by hand,
// without a stream, lists no items.
func (r *Report) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	v := reflect.ValueOf(r).Elem()
	t := v.Type()
	bw.WriteByte('{')
	sep := "\n  "
	for i := range t.NumField() {
		f := t.Field(i)
		name, omitEmpty, ok := jsonField(f)
		if !ok || omitEmpty && emptyJSON(v.Field(i)) {
			continue
		}
		bw.WriteString(sep)
		sep = ",\n  "
		key, err := json.Marshal(name)
		if err != nil {
			return err
		}
		bw.Write(key)
		bw.WriteString(": ")
		if f.Name == "Items" {
			err = r.writeItems(bw)
		} else {
			err = writeIndented(bw, v.Field(i).Interface())
		}
		if err != nil {
			return err
		}
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// writeItems writes the report's "items" array from its stream.
func (r *Report) writeItems(bw *bufio.Writer) error {
	if r.stream == nil || r.Scored.NumItems() == 0 {
		_, err := bw.WriteString("[]")
		return err
	}
	bw.WriteString("[\n    ")
	if err := r.stream.writeItems(bw); err != nil {
		return err
	}
	_, err := bw.WriteString("\n  ]")
	return err
}

// writeIndented writes a field's value as it sits in the report: indented one level,
// without HTML escaping so model outputs read as written.
func writeIndented(w io.Writer, v any) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("report: writing the JSON: %w", err)
	}
	_, err := io.WriteString(w, strings.TrimSuffix(b.String(), "\n"))
	return err
}

// jsonField is a struct field's JSON key and whether it is omitted when empty; ok is
// false for a field encoding/json leaves out.
func jsonField(f reflect.StructField) (name string, omitEmpty, ok bool) {
	if !f.IsExported() {
		return "", false, false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, strings.Contains(","+opts+",", ",omitempty,"), true
}

// emptyJSON is encoding/json's "empty" for omitempty.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
