package Config::IniFiles;

require 5.008;
use strict;
use warnings;

our $VERSION = '3.000003';
use Carp;
use Symbol 'gensym', 'qualify_to_ref';    # For the 'any data type' hack
use Fcntl qw( SEEK_SET SEEK_CUR );

use List::Util 1.33 qw(any none);

use Fi