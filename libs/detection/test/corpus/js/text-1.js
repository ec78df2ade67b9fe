const x = 1;
let y = 2;
console.log(x + y);
