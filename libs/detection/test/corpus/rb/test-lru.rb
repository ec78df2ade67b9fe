require 'rubygems'
require 'redis'

$runs = []; # Remember the error rate of each run for average purposes.
$o = {};    # Options set parsing arguments

def testit(filename)
    r = Redis.new
    r.config("SET","maxmemory","2000000")
    if $o[:ttl]
      