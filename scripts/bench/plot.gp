# scripts/bench/plot.gp (make bench): draw the scaling of landlock-run with the number of grants.
# gnuplot -e "datafile='...'; reffile='...'; outfile='...svg'" scripts/bench/plot.gp
# datafile columns: grants, landlock-run ms, floor-landlock ms, and their
# per-grant costs in µs. reffile sets floor_ms, true_ms, lr0_ms, bwrap_ms
# (bwrap_ms < 0: bubblewrap was not measured).
load reffile

set terminal svg size 1000,520 dynamic enhanced font "sans,12" background "#ffffff"
set output outfile
set multiplot layout 1,2

set logscale x 10
set xrange [0.7:14000]
set xtics ("1" 1, "10" 10, "100" 100, "1,000" 1000, "10,000" 10000)
set xlabel "grants besides --ro /"
set grid xtics ytics mytics lc rgb "#dddddd"
set key below left Left reverse width -8

set title "time per call (median)"
set logscale y 10
set ylabel "ms"
set format y "%g"
bwrap_title = bwrap_ms > 0 ? "bubblewrap → /bin/true" : ""
plot datafile using 1:2 with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "landlock-run --ro / + n → /bin/true", \
     datafile using 1:3 with linespoints lw 2 pt 5 dt 2 lc rgb "#2ca02c" title "floor-landlock (fewest syscalls), same grants", \
     (bwrap_ms > 0 ? bwrap_ms : 1/0) with lines lw 2 dt 3 lc rgb "#d62728" title bwrap_title, \
     floor_ms with lines lw 2 dt 4 lc rgb "#7f7f7f" title "floor (static exec wrapper) → /bin/true", \
     true_ms with lines lw 1 dt 1 lc rgb "#bbbbbb" title "/bin/true, bare"

set title "cost per grant: (t(n) − t(--ro / alone)) / n, from 10 grants"
unset logscale y
set xrange [7:14000]
set yrange [0:*]
set key inside top right Right noreverse width 0
set ylabel "µs per grant"
plot datafile using 1:($1 >= 10 ? $4 : 1/0) with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "landlock-run", \
     datafile using 1:($1 >= 10 ? $5 : 1/0) with linespoints lw 2 pt 5 dt 2 lc rgb "#2ca02c" title "floor-landlock"

unset multiplot
