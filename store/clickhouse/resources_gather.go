package clickhouse

// An inserter's batch of whole rows goes to the driver a column at a time
// (appendWholeRows), in the table's key order: the order of the ids'
// hashes, so that consecutive rows of a column lie far apart in memory (a
// row's strings are views of its decoded NDJSON line). Read a column at a
// time, every row's struct and line were fetched from memory again for
// each of the eleven String and Array(String) columns and for the tag
// index, and each row's struct again for its fixed-width columns.
// rowColumns reads each row once, in key order, and copies its values into
// one contiguous buffer per column, which the driver's copies and the tag
// index then read in order. BenchmarkAppendWholeRows
// measures it.

import (
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/column"

	"github.com/fourd-dev/fourd/store/clickhouse/internal/bulk"
)

// The String columns of resources that rowColumns gathers, by their place
// in rowColumns.strs.
const (
	gatherTenant = iota
	gatherID
	gatherProvider
	gatherAccount
	gatherRegion
	gatherType
	gatherNativeID
	gatherName
	gatherAttributes
	gatheredStrings
)

// rowColumns are the String and Array(String) columns of a batch's whole
// rows, gathered in key order. One inserter uses it; it is reused batch
// after batch, keeping its buffers.
type rowColumns struct {
	strs [gatheredStrings]byteColumn
	// keys and values are the tags' keys and values, row after row;
	// tags[j] is how many row j has.
	keys, values byteColumn
	tags         []int32
	// The fixed-width columns, gathered in the same pass.
	versions, hashes              []uint64
	firstSeen, lastSeen, captured []time.Time
}

// gather copies the rows at order into c, in that order: their strings,
// and their values of the fixed-width columns (firstSeen[i] is row i's
// first sighting).
func (c *rowColumns) gather(rows []resourceRow, order []sortEntry, firstSeen []time.Time) {
	c.reset()
	for _, e := range order {
		row := &rows[e.row]
		c.versions = append(c.versions, row.version)
		c.hashes = append(c.hashes, row.hash)
		c.firstSeen = append(c.firstSeen, firstSeen[e.row])
		c.lastSeen = append(c.lastSeen, row.lastSeen)
		c.captured = append(c.captured, row.captured)
		r := &row.r
		c.strs[gatherTenant].add(r.TenantID)
		c.strs[gatherID].add(r.ID)
		c.strs[gatherProvider].add(r.Provider)
		c.strs[gatherAccount].add(r.Account)
		c.strs[gatherRegion].add(r.Region)
		c.strs[gatherType].add(r.Type)
		c.strs[gatherNativeID].add(r.NativeID)
		c.strs[gatherName].add(r.Name)
		c.strs[gatherAttributes].addBytes(r.Attributes)
		for _, t := range r.Tags {
			c.keys.add(t.Key)
			c.values.add(t.Value)
		}
		c.tags = append(c.tags, int32(len(r.Tags)))
	}
}

func (c *rowColumns) reset() {
	for i := range c.strs {
		c.strs[i].reset()
	}
	c.keys.reset()
	c.values.reset()
	c.tags = c.tags[:0]
	c.versions, c.hashes = c.versions[:0], c.hashes[:0]
	c.firstSeen, c.lastSeen, c.captured = c.firstSeen[:0], c.lastSeen[:0], c.captured[:0]
}

// rows is how many rows c holds.
func (c *rowColumns) rows() int { return len(c.tags) }

// str returns row j's value of gathered String column k, a view of c's
// buffer valid until the next gather.
func (c *rowColumns) str(k, j int) string { return bulk.String(c.strs[k].at(j)) }

// appendStrings appends gathered String column k to col.
func (c *rowColumns) appendStrings(col bulk.Column, scratch *[]string, k int) error {
	return bulk.Strings(col, scratch, c.rows(), func(j int) string { return c.str(k, j) })
}

// appendTags appends the tags' keys (or values) to col, an Array(String)
// column, one array a row. views is scratch for the strings the driver is
// pointed at.
func (c *rowColumns) appendTags(col bulk.Column, arrays *bulk.StringArrays, views *[]string, keys bool) error {
	src := &c.values
	if keys {
		src = &c.keys
	}
	v := (*views)[:0]
	for i := range src.end {
		v = append(v, bulk.String(src.at(i)))
	}
	*views = v
	at := 0
	for _, n := range c.tags {
		row := v[at : at+int(n)]
		if err := arrays.AppendRow(col, len(row), func(k int) *string { return &row[k] }); err != nil {
			return err
		}
		at += int(n)
	}
	clear(v) // the views alias c's buffers
	*views = v[:0]
	return nil
}

// stringColumns are resources' String columns (resourceInsertColumns
// order) and the rowColumns column each is gathered into.
var stringColumns = [...]struct{ col, gathered int }{
	{0, gatherTenant}, {1, gatherID}, {3, gatherProvider}, {4, gatherAccount}, {5, gatherRegion},
	{6, gatherType}, {7, gatherNativeID}, {8, gatherName}, {11, gatherAttributes},
}

// reserve gives the String columns of cols, a new INSERT into resources
// with no rows yet, and the elements of its two tag arrays room for what c
// holds and a quarter more (bulk.Reserve): its first block then grows no
// buffer, and later blocks of a similar size neither.
func (c *rowColumns) reserve(cols []column.Interface) error {
	room := func(n int) int { return n + n/4 }
	rows := room(c.rows())
	for _, sc := range stringColumns {
		if err := bulk.Reserve(cols[sc.col], rows, room(len(c.strs[sc.gathered].data))); err != nil {
			return err
		}
	}
	for i, tags := range []*byteColumn{&c.keys, &c.values} {
		arr, ok := cols[9+i].(interface{ Base() column.Interface })
		if !ok {
			continue // a driver whose arrays hide their elements: they grow
		}
		if err := bulk.Reserve(arr.Base(), room(len(tags.end)), room(len(tags.data))); err != nil {
			return err
		}
	}
	return nil
}
