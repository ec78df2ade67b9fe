
use lib '.';
use Error qw(:try);

use strict;
use warnings;

@Error::Bad::ISA = qw(Error);

$Error::Debug = 1; # turn on verbose stacktrace

sub abc {
    try {
	try {
	    throw Error::Simple("a simple error");
	}
	catch Error::Simple with {
	    my $err