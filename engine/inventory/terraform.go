package inventory

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/fourd-dev/fourd/engine"
)

// TerraformDecoder streams the managed AWS resources of a Terraform state
// (version 4: {"version": 4, "resources": [...]}) or of `terraform show
// -json` output ({"values": {"root_module": {"resources", "child_modules"}}}),
// one Terraform resource at a time. Data sources are skipped. S3 buckets,
// security groups and VPCs are held until the end of the input so that
// their companion resources (aws_s3_bucket_versioning, aws_security_group_rule,
// aws_flow_log, …) can be merged into them; companions are not emitted.
type TerraformDecoder struct {
	dec     *json.Decoder
	stack   []tfFrame
	joins   *joiner
	out     []engine.Resource
	tail    []engine.Resource // held and pending resources, emitted at the end
	pending []pendingResource // resources seen before their provider's account was known
	// accounts is the account of each provider configuration (state files
	// name it, e.g. provider["registry.terraform.io/hashicorp/aws"].prod),
	// learned from the first ARN of a resource it manages; "" holds the
	// first account of the input, the fallback.
	accounts  map[string]string
	recorders recorderJoin // Config recorders and their statuses, joined at the end
	err       error
	done      bool
}

type pendingResource struct {
	provider, id string
	res          engine.Resource
}

type tfFrame int

const (
	tfTop        tfFrame = iota + 1 // the document object
	tfValues                        // "values" of terraform show
	tfModule                        // a module object
	tfStateList                     // state "resources" array
	tfModuleList                    // a module's "resources" array
	tfChildren                      // a module's "child_modules" array
)

// NewTerraformDecoder returns a decoder over r.
func NewTerraformDecoder(r io.Reader) *TerraformDecoder {
	return &TerraformDecoder{dec: json.NewDecoder(r), joins: newJoiner(), accounts: map[string]string{}}
}

// Next returns the next resource; see Decoder.
func (d *TerraformDecoder) Next() (engine.Resource, error) {
	for {
		if len(d.out) > 0 {
			r := d.out[0]
			d.out = d.out[1:]
			if d.joins.hold(r) {
				continue
			}
			return r, nil
		}
		if len(d.tail) > 0 {
			r := d.tail[0]
			d.tail = d.tail[1:]
			return d.finish(r)
		}
		if d.err != nil {
			return engine.Resource{}, d.err
		}
		if d.done {
			for _, p := range d.pending {
				if p.res.Account = d.accounts[p.provider]; p.res.Account == "" {
					p.res.Account = d.accounts[""]
				}
				withNativeID(&p.res, p.id)
				d.tail = append(d.tail, p.res)
			}
			d.tail = append(d.tail, d.joins.flush()...)
			d.tail = append(d.tail, d.recorders.flush(d.accounts)...)
			d.pending, d.err = nil, io.EOF
			continue
		}
		if err := d.step(); err != nil {
			var le *LineError
			if !errors.As(err, &le) {
				d.err = err
			}
			return engine.Resource{}, err
		}
	}
}

// finish fills the account of a resource held to the end and validates it.
func (d *TerraformDecoder) finish(r engine.Resource) (engine.Resource, error) {
	if r.Account == "" {
		r.Account = d.accounts[""]
	}
	if err := Validate(&r); err != nil {
		return engine.Resource{}, &LineError{Err: engine.FieldErrorf("", "terraform resource %s: %s", clip(r.Name), engine.ErrorMessage(err))}
	}
	return r, nil
}

func (d *TerraformDecoder) token() (json.Token, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return nil, malformed(err, d.dec.InputOffset())
	}
	return tok, nil
}

// enter reads the opening delimiter of the value at the decoder's position
// and pushes frame f.
func (d *TerraformDecoder) enter(want json.Delim, f tfFrame, what string) error {
	tok, err := d.token()
	if err != nil {
		return err
	}
	if tok != want {
		return engine.Errorf(engine.CodeInvalidRequest, "terraform: %s must be a JSON %s (byte offset %d)", what, string(want), d.dec.InputOffset())
	}
	d.stack = append(d.stack, f)
	return nil
}

func (d *TerraformDecoder) skip() error {
	var v json.RawMessage
	if err := d.dec.Decode(&v); err != nil {
		return malformed(err, d.dec.InputOffset())
	}
	return nil
}

// step advances by one key or one resource.
func (d *TerraformDecoder) step() error {
	if len(d.stack) == 0 {
		if d.dec.InputOffset() > 0 {
			d.done = true
			return nil
		}
		return d.enter('{', tfTop, "the document")
	}
	top := d.stack[len(d.stack)-1]
	if !d.dec.More() {
		if _, err := d.token(); err != nil { // the closing delimiter
			return err
		}
		d.stack = d.stack[:len(d.stack)-1]
		return nil
	}
	switch top {
	case tfStateList:
		return d.stateResource()
	case tfModuleList:
		return d.showResource()
	case tfChildren:
		return d.enter('{', tfModule, "a child module")
	}
	tok, err := d.token()
	if err != nil {
		return err
	}
	key, _ := tok.(string)
	switch {
	case top == tfTop && key == "version":
		var v json.Number
		if err := d.dec.Decode(&v); err != nil {
			return malformed(err, d.dec.InputOffset())
		}
		if v.String() != "4" {
			return engine.Errorf(engine.CodeInvalidRequest, "terraform: state version %s is not supported; fourd reads version 4 (Terraform 0.12 and later)", v.String())
		}
		return nil
	case top == tfTop && key == "resources":
		return d.enter('[', tfStateList, "resources")
	case top == tfTop && key == "values":
		return d.enter('{', tfValues, "values")
	case top == tfValues && key == "root_module":
		return d.enter('{', tfModule, "root_module")
	case top == tfModule && key == "resources":
		return d.enter('[', tfModuleList, "resources")
	case top == tfModule && key == "child_modules":
		return d.enter('[', tfChildren, "child_modules")
	}
	return d.skip()
}

type tfStateResource struct {
	Provider  string `json:"provider"`
	Module    string `json:"module"`
	Mode      string `json:"mode"`
	Type      string `json:"type"`
	Name      string `json:"name"`
	Instances []struct {
		IndexKey   json.RawMessage `json:"index_key"`
		Attributes json.RawMessage `json:"attributes"`
	} `json:"instances"`
}

type tfShowResource struct {
	Address string          `json:"address"`
	Mode    string          `json:"mode"`
	Type    string          `json:"type"`
	Values  json.RawMessage `json:"values"`
}

func (d *TerraformDecoder) stateResource() error {
	start := d.dec.InputOffset()
	var r tfStateResource
	if err := d.dec.Decode(&r); err != nil {
		return d.decodeErr(err, start)
	}
	if r.Mode == "data" {
		return nil
	}
	for _, inst := range r.Instances {
		addr := r.Type + "." + r.Name
		if r.Module != "" {
			addr = r.Module + "." + addr
		}
		if len(inst.IndexKey) > 0 {
			addr += "[" + string(inst.IndexKey) + "]"
		}
		if err := d.add(r.Type, addr, r.Provider, inst.Attributes, start); err != nil {
			return err // a bad instance: the ones before it are queued, the rest dropped
		}
	}
	return nil
}

func (d *TerraformDecoder) showResource() error {
	start := d.dec.InputOffset()
	var r tfShowResource
	if err := d.dec.Decode(&r); err != nil {
		return d.decodeErr(err, start)
	}
	if r.Mode == "data" {
		return nil
	}
	return d.add(r.Type, r.Address, "", r.Values, start)
}

func (d *TerraformDecoder) decodeErr(err error, start int64) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &LineError{Offset: start, Err: engine.FieldErrorf(te.Field, "terraform resource: %s must not be a JSON %s", fieldName(te.Field), te.Value)}
	}
	return malformed(err, d.dec.InputOffset())
}

// add maps one resource instance and queues it; companions only patch.
func (d *TerraformDecoder) add(typ, addr, provider string, attrs json.RawMessage, start int64) error {
	if typ == tfRecorderStatusType {
		if err := d.recorders.status(provider, jsonObject(attrs)); err != nil {
			return &LineError{Offset: start, Err: engine.FieldErrorf("attributes", "terraform resource %s: %v", clip(addr), err)}
		}
		return nil
	}
	res, id, ok, err := fromTerraform(typ, addr, jsonObject(attrs), d.joins)
	if err != nil {
		return &LineError{Offset: start, Err: err}
	}
	if !ok {
		return nil
	}
	if res.Account != "" {
		if d.accounts[""] == "" {
			d.accounts[""] = res.Account
		}
		if d.accounts[provider] == "" {
			d.accounts[provider] = res.Account
			d.release(provider)
		}
	}
	if res.Type == TypeConfigRecorder { // joined with its status at the end
		d.recorders.recorders = append(d.recorders.recorders, pendingResource{provider, id, res})
		return nil
	}
	if res.Account == "" {
		if d.accounts[provider] == "" {
			d.pending = append(d.pending, pendingResource{provider, id, res})
			return nil
		}
		res.Account = d.accounts[provider]
	}
	withNativeID(&res, id)
	if err := Validate(&res); err != nil {
		return &LineError{Offset: start, Err: engine.FieldErrorf("", "terraform resource %s: %s", clip(addr), engine.ErrorMessage(err))}
	}
	d.out = append(d.out, res)
	return nil
}

// release queues the pending resources of a provider whose account is now known.
func (d *TerraformDecoder) release(provider string) {
	kept := d.pending[:0]
	for _, p := range d.pending {
		if p.provider != provider {
			kept = append(kept, p)
			continue
		}
		p.res.Account = d.accounts[provider]
		withNativeID(&p.res, p.id)
		d.out = append(d.out, p.res)
	}
	d.pending = kept
}

// withNativeID synthesizes the native id of a resource without an ARN.
func withNativeID(r *engine.Resource, id string) {
	if r.NativeID == "" && r.Account != "" {
		r.NativeID = synthARN(r.Type, r.Region, r.Account, id)
	}
}
