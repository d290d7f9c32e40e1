package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/search"
	"github.com/fstensor/fstensor/tensorio"
)

// searchFlags are the flags of search.
type searchFlags struct {
	column, query, queryRow, metric string
	k                               int
	json                            bool
}

func newSearch(stdout io.Writer) *cobra.Command {
	var inf inputFlags
	var sf searchFlags
	cmd := &cobra.Command{
		Use:   "search FILE (--query Q.npy | --query-row FILE2:ROW)",
		Short: "Find the rows of a tensor column nearest to queries",
		Long: `Search prints the -k rows of a tensor column of FILE (the only one, or --column) nearest to
each query, by --metric: dot (inner product, largest first), cosine (largest first), l2
(Euclidean distance, smallest first) or sqeuclidean (squared distance). The file is read
batch by batch, so it may be larger than memory. Equal scores rank by lower row; null
tensors are skipped; rows count from 0 over all batches (from A with --rows A:B).

--query Q.npy reads the queries from a .npy file: one tensor of the column's shape, or a
batch of them (the first axis). --query-row FILE2:ROW takes row ROW of FILE2's column of
the same name (or its only tensor column). Queries may have another element type or
permutation than the column; scores are computed in float32 for float16 and float32
tensors, in float64 otherwise.

The text output has one line per hit: query, rank, row and score. --json prints
{"metric", "column", "k", "queries": [{"query", "hits": [{"row", "score"}]}]}, non-finite
scores as the strings "NaN", "+Inf" and "-Inf".`,
		Example: `  fstensor search testdata/embeddings.arrow --query-row testdata/embeddings.arrow:3 -k 5
  fstensor search embeddings.parquet --column emb --query q.npy --metric cosine --json`,
		Args: exactArgs(1, "one FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSearch(args[0], inf, sf, stdout)
		},
	}
	inf.register(cmd)
	fs := cmd.Flags()
	fs.StringVar(&sf.column, "column", "", "the tensor column to search (default: the only one)")
	fs.StringVar(&sf.query, "query", "", "a .npy file of one query tensor or a batch of them")
	fs.StringVar(&sf.queryRow, "query-row", "", "FILE2:ROW, a row of another (or the same) file as the query")
	fs.StringVar(&sf.metric, "metric", "dot", "dot, cosine, l2 or sqeuclidean")
	fs.IntVarP(&sf.k, "k", "k", 10, "the number of rows to find per query")
	fs.BoolVar(&sf.json, "json", false, "print JSON")
	mustComplete(cmd, "metric", completeWords("dot", "cosine", "l2", "sqeuclidean"))
	return cmd
}

func runSearch(path string, inf inputFlags, sf searchFlags, stdout io.Writer) error {
	metric, err := search.ParseMetric(sf.metric)
	if err != nil {
		return fmt.Errorf("%w: --metric %q is not dot, cosine, l2 or sqeuclidean", errUsage, sf.metric)
	}
	if sf.k < 0 {
		return fmt.Errorf("%w: -k %d is negative", errUsage, sf.k)
	}
	if (sf.query == "") == (sf.queryRow == "") {
		return fmt.Errorf("%w: search takes one of --query Q.npy and --query-row FILE2:ROW", errUsage)
	}
	p, err := inf.parse(path)
	if err != nil {
		return err
	}
	var opts []tensorio.Option
	if sf.column != "" {
		opts = append(opts, tensorio.WithColumns(sf.column))
	}
	r, err := p.open(path, opts...)
	if err != nil {
		return err
	}
	defer r.Release()
	schema := r.Schema()
	idx := -1
	for i, f := range schema.Fields() {
		if _, ok := fixedshape.TypeOfField(f); ok && (sf.column == "" || f.Name == sf.column) {
			if idx >= 0 {
				return fmt.Errorf("%w: %s has several tensor columns (%s); name one with --column", errUsage, path, columnNames(schema))
			}
			idx = i
		}
	}
	if idx < 0 {
		if sf.column != "" {
			return fmt.Errorf("%w: no tensor column %q in %s (columns: %s)", errUsage, sf.column, path, columnNames(schema))
		}
		return fmt.Errorf("%w: %s has no tensor column", errUsage, path)
	}
	field := schema.Field(idx)
	typ, _ := fixedshape.TypeOfField(field)

	var queries *fixedshape.Array
	if sf.query != "" {
		queries, err = readNpyQueries(sf.query, typ)
	} else {
		queries, err = readQueryRow(sf.queryRow, field.Name, inf)
	}
	if err != nil {
		return err
	}
	defer queries.Release()
	hits, err := search.Search(r, queries, sf.k, metric, search.WithColumnIndex(idx))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	single := isSingle(typ.ElemType()) && isSingle(queries.TensorType().ElemType())
	return printHits(stdout, hits, p.lo, metric, field.Name, sf, single)
}

func isSingle(dt arrow.DataType) bool { return dt.ID() == arrow.FLOAT32 || dt.ID() == arrow.FLOAT16 }

// readNpyQueries reads a .npy file of one tensor of typ's shape or a batch
// of them.
func readNpyQueries(path string, typ *fixedshape.Type) (*fixedshape.Array, error) {
	for _, single := range []bool{false, true} {
		q, err := readAll(path, "", single)
		if errors.Is(err, errNoRows) {
			return nil, fmt.Errorf("%w: --query %s holds no tensor", errUsage, path)
		}
		if err != nil {
			return nil, err
		}
		if slices.Equal(q.TensorType().Shape(), typ.Shape()) {
			return q, nil
		}
		q.Release()
	}
	return nil, fmt.Errorf("%w: --query %s holds neither a tensor of shape %v nor a batch of them", errUsage, path, typ.Shape())
}

// errNoRows reports a query file without rows.
var errNoRows = fmt.Errorf("%w: no rows", errUsage)

// readAll reads the tensor column named column (or the only one) of the
// file at path, all batches concatenated.
func readAll(path, column string, single bool, opts ...tensorio.Option) (*fixedshape.Array, error) {
	r, err := openInput(path, "", single, opts...)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	idx := -1
	for i, f := range r.Schema().Fields() {
		if _, ok := fixedshape.TypeOfField(f); ok {
			if f.Name == column {
				idx = i
				break
			}
			if idx >= 0 {
				return nil, fmt.Errorf("%w: %s has several tensor columns and none is named %q", errUsage, path, column)
			}
			idx = i
		}
	}
	if idx < 0 {
		return nil, fmt.Errorf("%w: %s has no tensor column", errUsage, path)
	}
	all, err := concatColumn(r, idx, mem)
	if errors.Is(err, errNoRows) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	a, ok := all.(*fixedshape.Array)
	if !ok {
		all.Release()
		return nil, fmt.Errorf("%s: column %d is not a tensor column", path, idx)
	}
	return a, nil
}

// readQueryRow reads row ROW of FILE2:ROW.
func readQueryRow(spec, column string, inf inputFlags) (*fixedshape.Array, error) {
	i := strings.LastIndexByte(spec, ':')
	if i < 0 {
		return nil, fmt.Errorf("%w: --query-row %q is not FILE2:ROW", errUsage, spec)
	}
	path := spec[:i]
	row, err := strconv.ParseInt(spec[i+1:], 10, 64)
	if err != nil || row < 0 {
		return nil, fmt.Errorf("%w: --query-row %q: ROW is not a row number", errUsage, spec)
	}
	var opts []tensorio.Option
	if row > 0 {
		opts = append(opts, tensorio.WithOffset(row))
	}
	opts = append(opts, tensorio.WithLimit(1))
	if inf.shape != "" {
		p, err := inf.parse(path)
		if err != nil {
			return nil, err
		}
		opts = append(opts, tensorio.WithShape(*p.tensor))
	}
	q, err := readAll(path, column, false, opts...)
	if errors.Is(err, errNoRows) {
		return nil, fmt.Errorf("%w: --query-row %s: %s has no row %d", errUsage, spec, path, row)
	}
	return q, err
}

// hitJSON and queryJSON are the --json output.
type hitJSON struct {
	Row   int64     `json:"row"`
	Score jsonFloat `json:"score"`
}

type queryJSON struct {
	Query int       `json:"query"`
	Hits  []hitJSON `json:"hits"`
}

type searchJSON struct {
	Metric  string      `json:"metric"`
	Column  string      `json:"column"`
	K       int         `json:"k"`
	Queries []queryJSON `json:"queries"`
}

func printHits(w io.Writer, hits [][]search.Hit, base int64, m search.Metric, column string, sf searchFlags, single bool) error {
	if sf.json {
		out := searchJSON{Metric: m.String(), Column: column, K: sf.k, Queries: []queryJSON{}}
		for j, hs := range hits {
			q := queryJSON{Query: j, Hits: []hitJSON{}}
			for _, h := range hs {
				q.Hits = append(q.Hits, hitJSON{Row: base + h.Row, Score: jsonFloat(h.Score)})
			}
			out.Queries = append(out.Queries, q)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "query\trank\trow\t%s\t\n", m)
	for j, hs := range hits {
		for i, h := range hs {
			fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t\n", j, i+1, base+h.Row, formatScore(h.Score, single))
		}
	}
	return tw.Flush()
}

// formatScore prints the shortest decimal that reads back as the score
// (as a float32 when it was computed in float32).
func formatScore(v float64, single bool) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	if single {
		return strconv.FormatFloat(v, 'g', -1, 32)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
