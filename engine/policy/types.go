package policy

import (
	"fmt"
	"reflect"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// The CEL type names of the two variables. Declaring them as object types
// with a fixed set of fields (rather than map(string, dyn)) makes a typo such
// as resource.nmae a compile-time error, and lets the interpreter read a
// field straight from the Go struct without building a map per resource.
const (
	resourceTypeName = "fourd.Resource"
	findingTypeName  = "fourd.Finding"
)

// objectType is a CEL object type whose values are Go pointers (*Input for
// resource, *engine.Finding for finding) read through field getters.
type objectType struct {
	celType *types.Type
	fields  map[string]*types.FieldType
	names   []string
}

// field is one declared field of an object type.
type field struct {
	name  string
	typ   *types.Type
	get   func(target any) any
	isSet func(target any) bool
}

func newObjectType(name string, fields []field) *objectType {
	o := &objectType{celType: types.NewObjectType(name), fields: make(map[string]*types.FieldType, len(fields))}
	for _, f := range fields {
		get := f.get
		o.fields[f.name] = &types.FieldType{
			Type:    f.typ,
			IsSet:   f.isSet,
			GetFrom: func(target any) (any, error) { return get(target), nil },
		}
		o.names = append(o.names, f.name)
	}
	return o
}

// emptyAttributes stands in for a resource without attributes; it is never
// written to.
var emptyAttributes = map[string]any{}

func stringField(name string, get func(in *Input) string) field {
	return field{name: name, typ: types.StringType,
		get:   func(t any) any { return get(t.(*Input)) },
		isSet: func(t any) bool { return get(t.(*Input)) != "" }}
}

func findingField(name string, get func(f *engine.Finding) string) field {
	return field{name: name, typ: types.StringType,
		get:   func(t any) any { return get(t.(*engine.Finding)) },
		isSet: func(t any) bool { return get(t.(*engine.Finding)) != "" }}
}

// resourceObject declares `resource`: the fields of engine.Resource that a
// policy may read, with tags as map(string, string) and the parsed JSON
// attributes as map(string, dyn).
func resourceObject() *objectType {
	return newObjectType(resourceTypeName, []field{
		stringField("id", func(in *Input) string { return in.Resource.ID }),
		stringField("type", func(in *Input) string { return in.Resource.Type }),
		stringField("provider", func(in *Input) string { return in.Resource.Provider }),
		stringField("account", func(in *Input) string { return in.Resource.Account }),
		stringField("region", func(in *Input) string { return in.Resource.Region }),
		stringField("name", func(in *Input) string { return in.Resource.Name }),
		stringField("native_id", func(in *Input) string { return in.Resource.NativeID }),
		{name: "tags", typ: types.NewMapType(types.StringType, types.StringType),
			get: func(t any) any {
				in := t.(*Input)
				if in.Tags == nil {
					return in.Resource.Tags.Map()
				}
				return in.Tags
			},
			isSet: func(t any) bool { return len(t.(*Input).Resource.Tags) > 0 }},
		{name: "attributes", typ: types.NewMapType(types.StringType, types.DynType),
			get: func(t any) any {
				if a := t.(*Input).Attributes; a != nil {
					return a
				}
				return emptyAttributes
			},
			isSet: func(t any) bool { return len(t.(*Input).Attributes) > 0 }},
	})
}

// findingObject declares `finding`, the built-in finding a severity policy
// looks at.
func findingObject() *objectType {
	return newObjectType(findingTypeName, []field{
		findingField("id", func(f *engine.Finding) string { return f.ID }),
		findingField("rule_id", func(f *engine.Finding) string { return f.RuleID }),
		findingField("severity", func(f *engine.Finding) string { return string(f.Severity) }),
		findingField("dimension", func(f *engine.Finding) string { return string(f.Dimension) }),
		findingField("title", func(f *engine.Finding) string { return f.Title }),
		findingField("status", func(f *engine.Finding) string { return string(f.Status) }),
		{name: "compliance", typ: types.NewListType(types.StringType),
			get: func(t any) any {
				if c := t.(*engine.Finding).Compliance; c != nil {
					return c
				}
				return []string{}
			},
			isSet: func(t any) bool { return len(t.(*engine.Finding).Compliance) > 0 }},
	})
}

// provider answers the type checker and interpreter for the two object types
// and defers everything else to cel-go's base registry.
type provider struct {
	types.Provider
	types.Adapter
	objects map[string]*objectType
}

// withObjects is an environment option installing a provider for objs on
// top of the environment's own.
func withObjects(objs ...*objectType) cel.EnvOption {
	return func(env *cel.Env) (*cel.Env, error) {
		p := &provider{Provider: env.CELTypeProvider(), Adapter: env.CELTypeAdapter(), objects: map[string]*objectType{}}
		for _, o := range objs {
			p.objects[o.celType.TypeName()] = o
		}
		env, err := cel.CustomTypeAdapter(p)(env)
		if err != nil {
			return nil, err
		}
		return cel.CustomTypeProvider(p)(env)
	}
}

func (p *provider) FindStructType(name string) (*types.Type, bool) {
	if o, ok := p.objects[name]; ok {
		return types.NewTypeTypeWithParam(o.celType), true
	}
	return p.Provider.FindStructType(name)
}

func (p *provider) FindStructFieldNames(name string) ([]string, bool) {
	if o, ok := p.objects[name]; ok {
		return o.names, true
	}
	return p.Provider.FindStructFieldNames(name)
}

func (p *provider) FindStructFieldType(name, fieldName string) (*types.FieldType, bool) {
	if o, ok := p.objects[name]; ok {
		ft, found := o.fields[fieldName]
		return ft, found
	}
	return p.Provider.FindStructFieldType(name, fieldName)
}

func (p *provider) NewValue(name string, fields map[string]ref.Val) ref.Val {
	if _, ok := p.objects[name]; ok {
		return types.NewErr("%s cannot be constructed in an expression", name)
	}
	return p.Provider.NewValue(name, fields)
}

// NativeToValue wraps the two object values so that they also work where
// the checker lost their type (dyn(resource).name).
func (p *provider) NativeToValue(v any) ref.Val {
	switch v.(type) {
	case *Input:
		return &object{typ: p.objects[resourceTypeName], v: v, adapter: p}
	case *engine.Finding:
		return &object{typ: p.objects[findingTypeName], v: v, adapter: p}
	}
	return p.Adapter.NativeToValue(v)
}

// object is a resource or finding seen as a CEL value.
type object struct {
	typ     *objectType
	v       any
	adapter types.Adapter
}

var (
	_ traits.Indexer     = (*object)(nil)
	_ traits.FieldTester = (*object)(nil)
)

func (o *object) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(o.v).AssignableTo(t) {
		return o.v, nil
	}
	return nil, fmt.Errorf("%s cannot be converted to %v", o.typ.celType.TypeName(), t)
}

func (o *object) ConvertToType(t ref.Type) ref.Val {
	if t == types.TypeType {
		return o.typ.celType
	}
	if t.TypeName() == o.typ.celType.TypeName() {
		return o
	}
	return types.NewErr("type conversion error from '%s' to '%s'", o.typ.celType.TypeName(), t.TypeName())
}

func (o *object) Equal(other ref.Val) ref.Val {
	x, ok := other.(*object)
	return types.Bool(ok && x.v == o.v)
}

func (o *object) Type() ref.Type { return o.typ.celType }

func (o *object) Value() any { return o.v }

func (o *object) Get(index ref.Val) ref.Val {
	name, ok := index.(types.String)
	if !ok {
		return types.ValOrErr(index, "no such overload")
	}
	ft, ok := o.typ.fields[string(name)]
	if !ok {
		return types.NewErr("no such field '%s'", name)
	}
	v, _ := ft.GetFrom(o.v)
	return o.adapter.NativeToValue(v)
}

func (o *object) IsSet(f ref.Val) ref.Val {
	name, ok := f.(types.String)
	if !ok {
		return types.ValOrErr(f, "no such overload")
	}
	ft, ok := o.typ.fields[string(name)]
	if !ok {
		return types.NewErr("no such field '%s'", name)
	}
	return types.Bool(ft.IsSet(o.v))
}
