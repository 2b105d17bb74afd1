package inventory

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// benchDecode decodes data b.N times and reports resources per second.
func benchDecode(b *testing.B, data []byte, open func(io.Reader) Decoder) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		d := open(bytes.NewReader(data))
		for {
			_, err := d.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "resources/s")
}

func readSample(b *testing.B, name string) []byte {
	data, err := os.ReadFile(filepath.Join(sampleDir, name))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkNDJSONDecode decodes the NDJSON sample repeated to 100 copies
// (25,200 resources of 25 types, about 13 MB).
func BenchmarkNDJSONDecode(b *testing.B) {
	data := bytes.Repeat(readSample(b, "fourd.ndjson"), 100)
	benchDecode(b, data, func(r io.Reader) Decoder { return NewNDJSONDecoder(r) })
}

func BenchmarkAWSConfigDecode(b *testing.B) {
	benchDecode(b, readSample(b, "aws-config-snapshot.json"), func(r io.Reader) Decoder { return NewAWSConfigDecoder(r) })
}

func BenchmarkTerraformStateDecode(b *testing.B) {
	benchDecode(b, readSample(b, "terraform.tfstate"), func(r io.Reader) Decoder { return NewTerraformDecoder(r) })
}

func BenchmarkTerraformShowDecode(b *testing.B) {
	benchDecode(b, readSample(b, "terraform-show.json"), func(r io.Reader) Decoder { return NewTerraformDecoder(r) })
}
